// The API's validation text ("tags: each tag must be 1-50 characters of a-z…") is written for
// programs: it names the field and the rule. People see sentences instead (docs/features/friction.md).
// The API's `detail` is unchanged; the web UI maps it here. A message not known here still reads as a
// sentence: the field's name in words, then the rule.

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
};

/** Whole messages (or rules) with a sentence of their own. */
const SENTENCES: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^tags: each tag must be 1-(\d+) characters of a-z, 0-9, _ or -$/, (m) => `Each tag can use letters, digits, “-” and “_”, up to ${m[1]} characters.`],
  [/^tags: at most (\d+) (tags are allowed|entries are accepted)$/, (m) => `Use at most ${m[1]} tags.`],
  [/^parent_ids: at most (\d+) parent claims are allowed$/, (m) => `A claim can build on at most ${m[1]} other claims.`],
  [/^content: a link must be an absolute http\(s\) URL/, () => "Enter a full web address, starting with https:// or http://."],
  [/^email: must be a valid email address$/, () => "Enter an email address like name@example.com."],
  [/^username: must be (\d+)-(\d+) characters of letters, digits and underscore$/, (m) => `A username has ${m[1]} to ${m[2]} characters: letters, digits and “_”.`],
  [/^min_gradient: must not be greater than max_gradient$/, () => "The lowest gradient must not be above the highest."],
  [/^Email already registered$/, () => "An account with this email address already exists. Sign in instead?"],
  [/^Username already taken$/, () => "This username is taken. Please choose another."],
  [/^Insufficient permissions$/, () => "You are not allowed to do that."],
  [/^Invalid or expired token$/, () => "Your session has ended. Please sign in again."],
  [/^Rate limit exceeded$/, () => "Too many requests. Please wait a minute and try again."],
  [/^Internal server error$/, () => "Something went wrong on our side. Please try again."],
];

const PASSWORD_NEEDS: Record<string, string> = {
  "must contain an uppercase letter": "an uppercase letter",
  "must contain a lowercase letter": "a lowercase letter",
  "must contain a digit": "a digit",
};

function labelOf(field: string): string {
  const known = FIELD_LABELS[field];
  if (known) return known;
  const words = field.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function listOf(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** One "field: rule" part as a sentence. */
function humanPart(part: string): string {
  for (const [pattern, toText] of SENTENCES) {
    const match = part.match(pattern);
    if (match) return toText(match);
  }
  const match = part.match(/^([a-z_]+(?:\.\d+)?): (.+)$/);
  if (!match) return sentence(part);
  const field = match[1].split(".")[0];
  const rule = match[2];
  const label = labelOf(field);
  let m: RegExpMatchArray | null;
  if (rule === "is required") return `${label} is required.`;
  if ((m = rule.match(/^must be (\d+)-(\d+) characters$/))) return `${label} must be ${m[1]} to ${m[2]} characters long.`;
  if ((m = rule.match(/^must be at least (\d+) characters$/))) return `${label} must be at least ${m[1]} characters long.`;
  if ((m = rule.match(/^(?:must be )?at most (\d+) (characters|bytes)$/))) return `${label} can be at most ${m[1]} ${m[2]} long.`;
  if ((m = rule.match(/^must be a string of at most (\d+) characters$/))) return `${label} can be at most ${m[1]} characters long.`;
  if (/^must be one of /.test(rule)) return `Choose one of the offered options for ${label.replace(/^The /, "the ").toLowerCase()}.`;
  if (/^must be (a|an) (string|array|list|number|object)\b/.test(rule)) return `${label} is not in the expected form.`;
  return sentence(`${label} ${rule}`);
}

/** The API's message (one rule, or several joined by "; ") as sentences a person can act on. */
export function humanError(message: string): string {
  const parts = message.split(/;\s*/).filter(Boolean);
  // Several password rules at once: one sentence naming everything it still needs.
  const needs = parts.map((p) => p.match(/^password: (.+)$/)?.[1]).filter((r): r is string => r !== undefined && r in PASSWORD_NEEDS);
  const rest = parts.filter((p) => !(p.startsWith("password: ") && p.slice(10) in PASSWORD_NEEDS));
  const sentences = rest.map(humanPart);
  if (needs.length > 0) sentences.push(`The password needs ${listOf(needs.map((n) => PASSWORD_NEEDS[n]))}.`);
  return [...new Set(sentences)].join(" ");
}
