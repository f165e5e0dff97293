// The API's errors are written for programs: a `code` from one table (docs/api.md#errors) and, on a
// validation failure, each field with the rule it broke. People see sentences instead
// (docs/features/friction.md), chosen here by the code and by each field's rule — never by reading
// the API's English, which may be reworded at any time. A code or rule without a sentence of its own
// still reads as one: the field's name in words, then the rule.
import type { ErrorCode, FieldError } from "~/server/errors.ts";
import { MAX_TAG_LENGTH } from "~/server/domain/tags.ts";
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from "~/server/domain/username.ts";

/** A field error as it arrives (any of the rule's details may be missing). */
export type FieldProblem = Pick<FieldError, "field" | "message"> & Partial<Omit<FieldError, "field" | "message">>;

/** A field as a person calls it, at the start of a sentence. */
const FIELD_LABELS: Record<string, string> = {
  statement: "The statement",
  tags: "Tags",
  parent_ids: "Parent claims",
  complexity_tier: "Complexity",
  content: "The text",
  content_type: "The kind of evidence",
  position: "The position",
  title: "The title",
  excerpt: "The quote",
  email: "The email address",
  password: "The password",
  username: "The username",
  display_name: "The display name",
  name: "The name",
  description: "The description",
  reason: "The reason",
  note: "The note",
  until: "The end date",
  q: "The search text",
  min_gradient: "The lowest gradient",
  max_gradient: "The highest gradient",
  events: "Events",
  scopes: "Permissions",
  url: "The address",
  criteria: "How it will be checked",
  fine_print: "The fine print",
  source_url: "The source",
  evidence_url: "The evidence link",
  check_at: "The check date",
  close_at: "The date voting closes for scoring",
  assumptions: "Assumptions",
};

/** The codes with a sentence of their own; the others show the API's detail as a sentence. */
const CODE_SENTENCES: Partial<Record<ErrorCode, string>> = {
  unauthenticated: "Your session has ended. Please sign in again.",
  invalid_token: "Your session has ended. Please sign in again.",
  invalid_credentials: "The email address or the password is not right.",
  forbidden: "You are not allowed to do that.",
  confirmation_failed: "The password is not right.",
  account_suspended: "This account is suspended.",
  email_taken: "An account with this email address already exists. Sign in instead?",
  username_taken: "This username is taken. Please choose another.",
  edit_locked: "People have voted on this, so it can no longer be edited: what they voted on stays as it was.",
  insufficient_standing:
    "Proposing or disputing an outcome needs standing here: a verified account with some history of votes.",
  insufficient_reputation: "Proposing an outcome needs more reputation than this account has yet.",
  own_proposal: "You proposed this outcome, so someone else has to dispute it.",
  check_immutable: "People have voted on this claim, so how it is checked no longer changes. Add a dated clarification instead.",
  outcome_not_open: "This check is not at that step any more. Reload the page to see where it is.",
  rate_limited: "Too many requests. Please wait a minute and try again.",
  too_many_password_failures: "Too many wrong passwords for this account. Wait a while, or reset your password.",
  invalid_link: "This link does not work any more: it was used, it expired, or a newer one was sent. Ask for a new one.",
  payload_too_large: "That is more than the server accepts at once. Please send less.",
  internal_error: "Something went wrong on our side. Please try again.",
  service_unavailable: "The service is busy right now. Please try again in a moment.",
  mail_not_configured: "This server cannot send mail, so no link can be mailed.",
  mail_not_sent: "The mail could not be sent. Please try again later.",
};

/** The field a code is about, where a form shows it beside that field. */
export const CODE_FIELDS: Partial<Record<ErrorCode, string>> = {
  email_taken: "email",
  username_taken: "username",
};

type Sentence = (e: FieldProblem) => string | undefined;

/** Sentences of one rule of one field, where the general ones below would read worse. */
const FIELD_SENTENCES: Record<string, Partial<Record<string, Sentence>>> = {
  tags: {
    format: (e) => `Each tag can use letters, digits, “-” and “_”, up to ${e.max ?? MAX_TAG_LENGTH} characters.`,
    too_many: (e) => (e.max !== undefined ? `Use at most ${e.max} tags.` : undefined),
  },
  parent_ids: { too_many: (e) => (e.max !== undefined ? `A claim can build on at most ${e.max} other claims.` : undefined) },
  username: { format: () => `A username has ${USERNAME_MIN_LENGTH} to ${USERNAME_MAX_LENGTH} characters: letters, digits and “_”.` },
  email: { format: () => "Enter an email address like name@example.com." },
  content: { format: (e) => (e.format === "url" ? "Enter a full web address, starting with https:// or http://." : undefined) },
  min_gradient: { not_above: () => "The lowest gradient must not be above the highest." },
  // A check's dates, refused by the service with the rule "invalid" (docs/features/checks.md).
  check_at: { invalid: () => "The check date must be in the future." },
  close_at: { invalid: () => "Scoring must close on or before the check date." },
  source_url: { format: () => "Enter a full web address for the source, starting with https:// or http://." },
  evidence_url: { format: () => "Enter a full web address for the evidence, starting with https:// or http://." },
};

/** What a password still needs, by the pattern of the rule it broke (the patterns the document states). */
const PATTERN_NEEDS: Record<string, string> = {
  "[A-Z]": "an uppercase letter",
  "[a-z]": "a lowercase letter",
  "[0-9]": "a digit",
};

function labelOf(field: string): string {
  const known = FIELD_LABELS[field];
  if (known) return known;
  const words = field.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const lower = (label: string) => label.replace(/^The /, "the ").toLowerCase();

function listOf(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** Text as a sentence: a capital first letter and a full stop. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The message without the field's name the API puts in front ("statement: must be…" → "must be…"). */
function ruleText(e: FieldProblem): string {
  return e.message.startsWith(`${e.field}: `) ? e.message.slice(e.field.length + 2) : e.message;
}

/**
 * The field a person sees: the top-level one (`tags.2` is a tag of `tags`), except inside a new claim's
 * `check`, whose parts are fields of their own on the form (`check.criteria` is `criteria`).
 */
export const topField = (field: string) => field.replace(/^check\./, "").split(".")[0];

function sizeSentence(label: string, e: FieldProblem, unit: string): string | undefined {
  const { min, max } = e;
  if (min !== undefined && max !== undefined) return `${label} must be ${min} to ${max} ${unit} long.`;
  if (min !== undefined) return `${label} must be at least ${min} ${unit} long.`;
  if (max !== undefined) return `${label} can be at most ${max} ${unit} long.`;
  return undefined;
}

function countSentence(label: string, e: FieldProblem): string | undefined {
  if (e.rule === "too_many" && e.max !== undefined) return `${label} can have at most ${e.max} entries.`;
  if (e.rule === "too_few" && e.min !== undefined) return `${label} needs at least ${e.min} ${e.min === 1 ? "entry" : "entries"}.`;
  return undefined;
}

function valueSentence(label: string, e: FieldProblem): string | undefined {
  const { min, max } = e;
  if (min !== undefined && max !== undefined) return `${label} must be between ${min} and ${max}.`;
  if (min !== undefined) return `${label} must be at least ${min}.`;
  if (max !== undefined) return `${label} must be at most ${max}.`;
  return undefined;
}

/** One field error as a sentence a person can act on. */
function fieldSentence(e: FieldProblem): string {
  const field = topField(e.field);
  const label = labelOf(field);
  const own = e.rule ? FIELD_SENTENCES[field]?.[e.rule]?.(e) : undefined;
  if (own) return own;
  let general: string | undefined;
  switch (e.rule) {
    case "required":
      general = `${label} is required.`;
      break;
    case "too_short":
    case "too_long":
      general = sizeSentence(label, e, "characters");
      break;
    case "too_few":
    case "too_many":
      general = countSentence(label, e);
      break;
    case "too_small":
    case "too_big":
      general = valueSentence(label, e);
      break;
    case "enum":
      general = `Choose one of the offered options for ${lower(label)}.`;
      break;
    case "type":
      general = `${label} is not in the expected form.`;
      break;
    case "format":
      if (e.format === "email") general = "Enter an email address like name@example.com.";
      else if (e.format === "url") general = `${label} must be a full web address, starting with https://.`;
      else if (e.format === "date-time") general = `${label} must be a date and time.`;
      break;
    case "not_above":
      if (e.other) general = `${label} must not be above ${lower(labelOf(e.other))}.`;
      break;
  }
  return general ?? asSentence(`${label} ${ruleText(e)}`);
}

/** The errors of one field (or of several) as sentences: a password's missing kinds of characters in one. */
export function humanFieldErrors(errors: readonly FieldProblem[]): string {
  const needs = new Map<string, string[]>();
  const sentences: string[] = [];
  for (const e of errors) {
    const need = e.rule === "format" && e.pattern !== undefined ? PATTERN_NEEDS[e.pattern] : undefined;
    if (need) needs.set(topField(e.field), [...(needs.get(topField(e.field)) ?? []), need]);
    else sentences.push(fieldSentence(e));
  }
  for (const [field, kinds] of needs) sentences.push(`${labelOf(field)} needs ${listOf(kinds)}.`);
  return [...new Set(sentences)].join(" ");
}

/**
 * The sentence for an error: by its code, a validation failure by its fields; a code without a
 * sentence of its own shows the API's detail as one (a 404's `Claim not found`).
 */
export function humanError(code: string | undefined, detail: string, errors?: readonly FieldProblem[]): string {
  if (code === "validation_failed" && errors?.length) return humanFieldErrors(errors);
  const own = code ? CODE_SENTENCES[code as ErrorCode] : undefined;
  return own ?? asSentence(detail || "Request failed");
}

/**
 * The sentence of a refused account deletion (code `confirmation_failed`): an empty field asks for what
 * confirms, a wrong one says so (docs/features/friction.md#error-text-sentences-in-the-ui-chosen-by-code-and-rule).
 */
export function deletionConfirmationSentence({ hasPassword, username, empty }: { hasPassword: boolean; username: string; empty: boolean }): string {
  if (hasPassword) return empty ? "Enter your password to confirm." : "The password is not right.";
  return empty ? `Type your username, ${username}, to confirm.` : `Type your username, ${username}, exactly.`;
}
