// The API document states what the server enforces (docs/api.md#the-document), checked from the
// document alone: GET /api/v1/openapi.json is read from the running REST adapter, and for every operation
// fast-check draws requests from its schemas (tests/contract/schema-arbitraries.ts) and sends them over
// real HTTP, as a signed-in agent (an admin on the moderation operations), with ids and credentials that
// exist where a value must exist (the fixtures below: the schemas cannot know which ids are stored).
//   - valid requests (every value within its schema), drawn and with one field at its edge (shortest,
//     longest, spaces around too little, as many items as allowed, a bound), are accepted, or refused
//     for a business reason only: 404, 409, 403, 401 on the operations whose input is a credential,
//     and the 400s listed in BUSINESS_REFUSALS with their reasons;
//   - invalid requests, each breaking one rule of one field (too long, a bad format, missing, a wrong
//     type or enum, too many items, a rule across fields, text that cannot be stored), answer 400
//     `validation_failed` with `errors` naming the field (exceptions: INVALID_EXCEPTIONS);
//   - every answer's status is one the document lists for the operation, and its body (JSON, or text
//     where the document says text/plain) validates against the schema listed there (ajv, 2020-12);
//   - a method a path does not list answers 405 with `Allow` naming exactly the methods it lists.
// Deterministic (CONTRACT_SEED); CONTRACT_RUNS drawn valid requests per operation (default 8: about
// 1,500 requests in all, a minute or two on two cores with PGlite); CONTRACT_VERBOSE=1 prints statuses.
import fc from "fast-check";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, describe, expect, it } from "vitest";
import { db, readSql } from "../../server/db/client.ts";
import { hashPassword } from "../../server/auth/passwords.ts";
import { issueTokenPair } from "../../server/services/auth.ts";
import { grantAdmin } from "../../server/services/moderation.ts";
import { createExchangeCode } from "../../server/services/oauth.ts";
import { fanOutEvents } from "../../server/services/notifications.ts";
import { disputeOutcome, proposeOutcome } from "../../server/services/checks.ts";
import { unsubscribeUrl } from "../../server/services/digest.ts";
import { startApi, uniqueName, type ApiResponse } from "../helpers/api.ts";
import { afterSignUpMail, startSmtpSink, tokenIn } from "../helpers/smtp-sink.ts";
import { breachesOf, deref, edgesOf, objectArb, OMIT, storable, valueArb, type Doc, type Fixtures, type Schema } from "./schema-arbitraries.ts";

const RUNS = Math.max(1, Number(process.env.CONTRACT_RUNS ?? 8));
const SEED = Number(process.env.CONTRACT_SEED ?? 20261128);

// GitHub sign-in configured, so that a sign-in's start can answer its 302 (Google's would fetch its
// discovery document from the network; the others answer 501); mail goes to a real SMTP sink.
process.env.GITHUB_CLIENT_ID ??= "contract-github";
process.env.GITHUB_CLIENT_SECRET ??= "contract-secret";
const smtp = await startSmtpSink();
process.env.SMTP_URL = smtp.url;
const api = await startApi();
const tallies = new Map<string, Map<string, number>>();
afterAll(async () => {
  await api.close();
  await smtp.close();
  if (process.env.CONTRACT_VERBOSE) for (const [name, t] of tallies) console.log(name.padEnd(64), JSON.stringify(Object.fromEntries(t)));
});

const doc: Doc = (await api.get("/openapi.json")).body;

// ---- the validator: the document's schemas as JSON Schema 2020-12 ----

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addKeyword({ keyword: "x-max-utf8-bytes", type: "string", schemaType: "number", validate: (max: number, data: string) => Buffer.byteLength(data, "utf8") <= max });
const compiled = new WeakMap<Schema, ValidateFunction>();
/** Whether `value` is valid under `schema` (its $refs read from the document), and why not. */
function check(schema: Schema, value: unknown): { ok: boolean; why: string } {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: doc.components });
    compiled.set(schema, validate);
  }
  const ok = validate(value) as boolean;
  return { ok, why: ok ? "" : ajv.errorsText(validate.errors, { separator: "; " }).slice(0, 600) };
}

// ---- the operations ----

interface Param {
  name: string;
  in: "path" | "query";
  required?: boolean;
  schema: Schema;
  style?: string;
  explode?: boolean;
}

interface Operation {
  name: string;
  method: string;
  path: string;
  params: Param[];
  body?: Schema;
  bodyRequired: boolean;
  secured: boolean;
  responses: Record<string, Schema>;
}

const METHODS = ["get", "post", "put", "patch", "delete"];
const operations: Operation[] = [];
for (const [path, item] of Object.entries(doc.paths)) {
  for (const method of METHODS.filter((m) => item[m])) {
    const op = item[method];
    operations.push({
      name: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      params: op.parameters ?? [],
      body: op.requestBody?.content?.["application/json"]?.schema,
      bodyRequired: op.requestBody?.required !== false,
      secured: (op.security ?? []).every((s: Schema) => Object.keys(s).length > 0),
      responses: op.responses,
    });
  }
}
// Deletions last: the other operations keep their fixtures.
operations.sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));

// ---- fixtures: a little of everything, made through the API ----

const PASSWORD = "Password123";
const passwordHash = await hashPassword(PASSWORD);

interface Agent {
  id: string;
  username: string;
  email: string;
  token: string;
}

/** A signed-in agent with PASSWORD, made in the database (one bcrypt hash for all of them). */
async function agent(): Promise<Agent> {
  const username = uniqueName("ct");
  const email = `${username.toLowerCase()}@example.test`;
  const row = await db().agent.create({ data: { username, usernameKey: username.toLowerCase(), displayName: username, email, passwordHash }, select: { id: true } });
  return { id: row.id, username, email, token: (await issueTokenPair(row.id)).access_token };
}
async function agents(n: number): Promise<Agent[]> {
  const out: Agent[] = [];
  for (let i = 0; i < n; i++) out.push(await agent());
  return out;
}

async function made(res: Promise<ApiResponse>, what: string): Promise<any> {
  const r = await res;
  if (r.status >= 300) throw new Error(`fixture ${what}: ${r.status} ${r.text}`);
  return r.body;
}

const people = await agents(3);
const admin = await agent();
await grantAdmin(admin.username);
const TAGS = ["physics", "economics", "contract-tag"];

const claimIds: string[] = [];
for (const [i, a] of people.entries()) {
  claimIds.push((await made(api.post("/claims", { statement: `Contract fixture claim number ${i} about the world`, tags: [TAGS[i], TAGS[2]] }, { token: a.token }), "claim")).id);
}
claimIds.push((await made(api.post("/claims", { statement: "A child claim of the first contract fixture", parent_ids: [claimIds[0]] }, { token: people[1].token }), "child claim")).id);
const evidenceIds: string[] = [];
const commentIds: string[] = [];
const argumentIds: string[] = [];
for (const [i, a] of people.entries()) {
  const claim = claimIds[(i + 1) % 3];
  await made(api.post(`/claims/${claim}/vote`, { value: 0.3 * i }, { token: a.token }), "vote");
  await made(api.post(`/claims/${claim}/follow`, undefined, { token: people[(i + 2) % 3].token }), "follow");
  await made(api.post(`/claims/${claim}/bookmark`, undefined, { token: a.token }), "bookmark");
  evidenceIds.push((await made(api.post(`/claims/${claim}/evidence`, { position: "supports", content_type: "text", content: `Evidence ${i}` }, { token: a.token }), "evidence")).id);
  evidenceIds.push((await made(api.post(`/claims/${claim}/evidence`, { position: "opposes", content_type: "link", content: `https://example.org/${i}` }, { token: a.token }), "link")).id);
  const comment = (await made(api.post(`/claims/${claim}/comments`, { content: `Comment ${i}` }, { token: a.token }), "comment")).id;
  commentIds.push(comment, (await made(api.post(`/claims/${claim}/comments`, { content: `Reply ${i}`, parent_id: comment }, { token: people[(i + 1) % 3].token }), "reply")).id);
}
for (let i = 0; i + 1 < claimIds.length; i++) {
  argumentIds.push((await made(api.post(`/claims/${claimIds[i]}/arguments`, { stance: i % 2 ? "opposes" : "supports", child_claim_id: claimIds[i + 1] }, { token: people[0].token }), "argument")).id);
}
// The inbox: the events so far, fanned out as the worker would.
const events = await readSql<{ id: string }>`SELECT id::text AS id FROM outbox_events WHERE fanned_out_at IS NULL ORDER BY id`;
await fanOutEvents(events.map((e) => e.id), async () => {});
const notificationIds: string[] = [];
for (const a of people) notificationIds.push(...(await made(api.get("/notifications", { token: a.token }), "inbox")).notifications.map((n: any) => n.id));

// A public address literal passes the URL rules without DNS; the schemas cannot know which hosts resolve.
const WEBHOOK_URL = "https://93.184.215.14/hook";
const keyIds: string[] = [];
const webhookIds: string[] = [];
const deliveryIds: string[] = [];
for (const a of people) {
  keyIds.push((await made(api.post("/auth/api-keys", { name: "Contract key", scopes: ["read"] }, { token: a.token }), "key")).id);
  const hook = (await made(api.post("/webhooks", { url: WEBHOOK_URL, events: ["claim.voted"] }, { token: a.token }), "webhook")).id;
  webhookIds.push(hook);
  await made(api.post(`/webhooks/${hook}/test`, undefined, { token: a.token }), "ping");
  deliveryIds.push(...(await made(api.get(`/webhooks/${hook}/deliveries`, { token: a.token }), "deliveries")).deliveries.map((d: any) => d.id));
}

// Moderation acts on content and agents of its own, so that hiding and suspending take nothing away from
// the other operations.
const victims = await agents(2);
const victimClaim = (await made(api.post("/claims", { statement: "A claim for the moderators to act on" }, { token: victims[0].token }), "victim claim")).id;
const victimEvidence = (await made(api.post(`/claims/${victimClaim}/evidence`, { position: "neutral", content_type: "text", content: "Evidence to moderate" }, { token: victims[1].token }), "victim evidence")).id;
const victimComment = (await made(api.post(`/claims/${victimClaim}/comments`, { content: "A comment to moderate" }, { token: victims[1].token }), "victim comment")).id;
const reportIds: string[] = [];
for (const [i, [target_type, target_id]] of ([["claim", victimClaim], ["evidence", victimEvidence], ["comment", victimComment], ["agent", victims[0].id]] as const).entries()) {
  reportIds.push((await made(api.post("/reports", { target_type, target_id, reason: "spam" }, { token: people[i % 3].token }), "report")).id);
}

// Checks against the world (docs/features/checks.md): claims with a check and no votes, one per
// person (its author may set its terms and clarify it), and checks at each step of the outcome's life
// (dates moved back as time would), so that a proposal, a dispute and a settlement can each succeed once.
const checkTerms = { criteria: "Checked against the annual report", check_at: new Date(Date.now() + 86_400_000).toISOString() };
const checkedIds: string[] = [];
for (const [i, a] of people.entries()) {
  checkedIds.push((await made(api.post("/claims", { statement: `Contract fixture claim ${i} with a check`, check: checkTerms }, { token: a.token }), "checked claim")).id);
}
const outcomeStepIds = async (n: number, what: string) => {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await made(api.post("/claims", { statement: `Contract fixture claim ${what} ${i}`, check: checkTerms }, { token: victims[0].token }), what)).id);
  await readSql`UPDATE claim_checks SET close_at = now() - interval '2 hours', check_at = now() - interval '1 hour' WHERE claim_id = ANY(${ids}::uuid[])`;
  return ids;
};
// Everyone who proposes or disputes here has standing and the reputation to propose.
await readSql`UPDATE agents SET standing = true, reputation = 1000 WHERE id = ANY(${[...people, ...victims].map((a) => a.id)}::uuid[])`;
const awaitingIds = await outcomeStepIds(RUNS + 2, "awaiting an outcome");
const proposedIds = await outcomeStepIds(RUNS + 2, "with a proposed outcome");
const disputedIds = await outcomeStepIds(RUNS + 2, "with a disputed outcome");
for (const claimId of [...proposedIds, ...disputedIds]) {
  await proposeOutcome({ claimId, proposerId: victims[1].id, outcome: "true", evidenceUrl: "https://example.org/report", note: "The report says so" });
}
for (const claimId of disputedIds) await disputeOutcome({ claimId, disputerId: victims[0].id, reason: "It does not", evidenceUrl: "https://example.org/other" });

// Credentials that must have been issued: refresh tokens, sign-in codes, mailed links (each works once).
const refreshTokens: string[] = [];
for (let i = 0; i < RUNS + 2; i++) refreshTokens.push((await issueTokenPair(people[i % 3].id)).refresh_token);
/** A sign-in code lives 60 seconds: one is made when the request that exchanges it is sent. */
const FRESH_CODE = "fresh-sign-in-code";
// (A reset by mail verifies the address too: the two links go to different agents.)
const resetTokens: string[] = [];
const verifyTokens: string[] = [];
for (const a of await agents(2)) {
  const since = Date.now();
  await made(api.post("/auth/password-reset", { email: a.email }), "reset");
  resetTokens.push(tokenIn(await smtp.waitForMail(a.email, { subject: /Reset/, since }), "/reset-password"));
}
for (const a of await agents(2)) {
  const since = await afterSignUpMail(smtp, a.email);
  await made(api.post("/auth/email/verify", undefined, { token: a.token }), "verify");
  verifyTokens.push(tokenIn(await smtp.waitForMail(a.email, { subject: /Verify/, since }), "/verify-email"));
}

/** Draws from a pool once per request; a spent pool answers what the schema allows but names nothing. */
const fromPool = (pool: string[], spent: string) => fc.constant(null).map(() => pool.pop() ?? spent);

const fixtures: Fixtures = {
  claim_id: fc.constantFrom(...claimIds),
  evidence_id: fc.constantFrom(...evidenceIds),
  comment_id: fc.constantFrom(...commentIds),
  argument_id: fc.constantFrom(...argumentIds),
  notification_id: fc.constantFrom(...notificationIds),
  key_id: fc.constantFrom(...keyIds),
  webhook_id: fc.constantFrom(...webhookIds),
  delivery_id: fc.constantFrom(...deliveryIds),
  report_id: fc.constantFrom(...reportIds),
  agent_id: fc.constantFrom(...people.flatMap((a) => [a.id, a.username, a.username.toUpperCase()])),
  parent_ids: fc.subarray(claimIds, { maxLength: 3 }),
  child_claim_id: fc.constantFrom(...claimIds),
  parent_id: fc.constantFrom<unknown>(...commentIds, null, OMIT),
  url: fc.constant(WEBHOOK_URL),
  refresh_token: fromPool(refreshTokens, "rt_spent"),
  code: fc.oneof(fc.constant(FRESH_CODE), fc.constant("oc_never_issued")),
  // A page's cursor is the next_cursor of the page before: the first page has none.
  cursor: fc.constant(OMIT),
};
/** The moderation operations act on the victims, their content and the reports on them. */
const moderationFixtures: Fixtures = {
  ...fixtures,
  agent_id: fc.constantFrom(...victims.map((a) => a.id)),
  target_id: fc.constantFrom(victimClaim, victimEvidence, victimComment),
};
const fixturesByOperation: Record<string, Fixtures> = {
  // Credentials that exist, half the time (a sign-in needs an account's address with its password).
  "POST /auth/login": { ...fixtures, email: fc.oneof(fc.constantFrom(...people.map((a) => a.email)), fc.emailAddress()), password: fc.oneof(fc.constant(PASSWORD), fc.string()) },
  "POST /auth/me/delete": { ...fixtures, password: fc.constant(PASSWORD) },
  "POST /auth/password": { ...fixtures, current_password: fc.constant(PASSWORD) },
  "POST /reports": { ...fixtures, target_id: fc.constantFrom(victimClaim, victimEvidence, victimComment, ...victims.map((a) => a.id)) },
  "POST /auth/password-reset/confirm": { ...fixtures, token: fromPool(resetTokens, "spent-reset-token") },
  "POST /auth/email/verify/confirm": { ...fixtures, token: fromPool(verifyTokens, "spent-verify-token") },
  "GET /claims/{claim_id}/check": { ...fixtures, claim_id: fc.constantFrom(...checkedIds) },
  "PUT /claims/{claim_id}/check": { ...fixtures, claim_id: fc.constantFrom(...checkedIds) },
  "POST /claims/{claim_id}/check/clarifications": { ...fixtures, claim_id: fc.constantFrom(...checkedIds) },
  "POST /claims/{claim_id}/outcome": { ...fixtures, claim_id: fromPool(awaitingIds, awaitingIds[0]) },
  "POST /claims/{claim_id}/outcome/dispute": { ...fixtures, claim_id: fromPool(proposedIds, proposedIds[0]) },
  "POST /moderation/claims/{claim_id}/outcome": { ...moderationFixtures, claim_id: fromPool(disputedIds, disputedIds[0]) },
  // The token of a digest's unsubscribe link for the account it names, half the time.
  "POST /digest/unsubscribe": {
    ...fixtures,
    agent_id: fc.constant(people[0].id),
    token: fc.oneof(fc.constant(new URL(unsubscribeUrl(people[0].id)).searchParams.get("token")!), fc.constant("A".repeat(43))),
  },
};
const isModeration = (op: Operation) => /^\/(moderation|admin)\//.test(op.path);
const fixturesOf = (op: Operation) => fixturesByOperation[op.name] ?? (isModeration(op) ? moderationFixtures : fixtures);

/**
 * Operations that end the caller's logins or account: each valid request has an agent of its own, made
 * when it is sent; the refused requests share one (they end nothing).
 */
const OWN_ACCOUNT = new Set(["POST /auth/password", "POST /auth/logout-everywhere", "POST /auth/me/delete"]);
const refusedOwnAgent = new Map<string, Agent>();
for (const name of OWN_ACCOUNT) refusedOwnAgent.set(name, await agent());

function tokenArb(op: Operation): fc.Arbitrary<string | undefined> {
  if (OWN_ACCOUNT.has(op.name)) return fc.constant(refusedOwnAgent.get(op.name)!.token);
  if (isModeration(op)) return fc.constant(admin.token);
  const signedIn = fc.constantFrom(...people.map((a) => a.token));
  return op.secured ? signedIn : fc.option(signedIn, { nil: undefined });
}

// ---- requests ----

/** A drawn request with the credentials that must be made when it is sent (see OWN_ACCOUNT, FRESH_CODE). */
async function madeWhenSent(op: Operation, drawn: Request): Promise<Request> {
  const req = OWN_ACCOUNT.has(op.name) ? { ...drawn, token: (await agent()).token } : drawn;
  if (req.body?.code === FRESH_CODE) return { ...req, body: { ...req.body, code: await createExchangeCode(people[0].id) } };
  return req;
}

interface Request {
  path: Record<string, string>;
  /** Typed values, serialised by the parameter's style; `raw` values are sent as they are. */
  query: Record<string, unknown>;
  raw: Record<string, string>;
  body?: Record<string, unknown>;
  token?: string;
}

function serialise(op: Operation, req: Request): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(req.path[name]));
  const pairs: [string, string][] = [];
  for (const p of op.params.filter((p) => p.in === "query")) {
    const v = req.query[p.name];
    if (v === undefined) continue;
    if (Array.isArray(v)) {
      if (p.explode === false) pairs.push([p.name, v.map(String).join(",")]);
      else for (const item of v) pairs.push([p.name, String(item)]);
    } else pairs.push([p.name, String(v)]);
  }
  for (const [k, v] of Object.entries(req.raw)) pairs.push([k, v]);
  const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  return qs ? `${path}?${qs}` : path;
}

function describeRequest(op: Operation, req: Request): string {
  const body = req.body === undefined ? "" : JSON.stringify(req.body);
  return `${op.method} ${serialise(op, req).slice(0, 300)} ${body.length > 400 ? `${body.slice(0, 400)}… (${body.length} chars)` : body}`;
}

/** `arb.filter(keep)`, failing (rather than drawing forever) when nothing drawn is kept. */
function keeping<T>(arb: fc.Arbitrary<T>, keep: (v: T) => boolean, what: string): fc.Arbitrary<T> {
  let misses = 0;
  return arb.filter((v) => {
    if (keep(v)) {
      misses = 0;
      return true;
    }
    if (++misses > 2000) throw new Error(`no ${what} in 2000 draws`);
    return false;
  });
}

/** A path segment the URL cannot carry as itself: empty, or a dot segment (removed before sending). */
const sendableSegment = (v: unknown) => typeof v === "string" && v !== "" && v !== "." && v !== "..";
/**
 * The request line and headers may hold 16 KiB (the document's description; the HTTP server answers
 * 431 past it, before the API): requests are drawn with URLs of at most half that.
 */
const MAX_URL = 8 * 1024;
const sendable = (op: Operation) => (req: Request) => serialise(op, req).length <= MAX_URL;
/** A comma-separated list's items cannot hold commas. */
const listItem = (p: Param) => (v: unknown) => p.explode !== false || !Array.isArray(v) || v.every((i) => !String(i).includes(","));

function validRequestArb(op: Operation): fc.Arbitrary<Request> {
  const fx = fixturesOf(op);
  const path = fc.record(
    Object.fromEntries(op.params.filter((p) => p.in === "path").map((p) => [p.name, valueArb(doc, p.schema, p.name, fx).filter(sendableSegment)])),
  ) as fc.Arbitrary<Record<string, string>>;
  const queryParams = op.params.filter((p) => p.in === "query");
  const query = fc.record(
    Object.fromEntries(queryParams.map((p) => [p.name, valueArb(doc, p.schema, p.name, listItems(p) ? { ...fx, [`${p.name}[]`]: listItems(p)! } : fx).filter(listItem(p))])),
    { requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) },
  );
  const body = op.body ? objectArb(doc, op.body, fx) : fc.constant(undefined);
  return keeping(
    fc.record({ path, query, raw: fc.constant({}), body, token: tokenArb(op) }) as fc.Arbitrary<Request>,
    (req) => whyInvalid(op, req) === null && sendable(op)(req) && (UNSTATED_RULES[op.name]?.holds(req) ?? true),
    `valid request of ${op.name}`,
  );
}

/** Why the document would refuse this request; null when every value is within its schema. */
function whyInvalid(op: Operation, req: Request): string | null {
  for (const p of op.params) {
    const v = p.in === "path" ? req.path[p.name] : req.query[p.name];
    if (v === undefined) {
      if (p.required) return `${p.name}: missing`;
      continue;
    }
    const r = check(p.schema, v);
    if (!r.ok) return `${p.name}: ${r.why}`;
  }
  if (op.body && req.body !== undefined) {
    const r = check(op.body, req.body);
    if (!r.ok) return `body: ${r.why}`;
  }
  return stringsIn([req.path, req.query, req.body]).every(storable) ? null : "text that cannot be stored";
}

function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return [];
}

async function send(op: Operation, req: Request): Promise<ApiResponse> {
  try {
    return await api.request(op.method, serialise(op, req), { body: req.body, token: req.token });
  } catch (err) {
    // A kept-alive connection the server closed while the next request was being drawn: the request
    // never reached it (fetch's known race with an idle socket). Sent again once, on a new connection.
    if ((err as { cause?: { code?: string } }).cause?.code !== "ECONNRESET") throw err;
    return api.request(op.method, serialise(op, req), { body: req.body, token: req.token });
  }
}

// ---- checking an answer against the document ----

function checkAnswer(op: Operation, res: ApiResponse, where: string): void {
  const declared = op.responses[String(res.status)];
  expect(declared, `status ${res.status} is not in the document for ${op.name}: ${where}`).toBeDefined();
  expect(res.headers.get("x-ratelimit-limit"), `rate-limit headers: ${where}`).toMatch(/^\d+$/);
  if (!declared.content) {
    expect(res.text, `${res.status} has no body in the document: ${where}`).toBe("");
    if (res.status === 302) expect(res.headers.get("location"), where).toBeTruthy();
    return;
  }
  const type = (res.headers.get("content-type") ?? "").split(";")[0].trim();
  expect(Object.keys(declared.content), `content type ${type}: ${where}`).toContain(type);
  const schema = declared.content[type].schema;
  const r = check(schema, type === "application/json" ? res.body : res.text);
  expect(r.ok, `the body does not match the document's ${res.status} schema (${r.why}): ${where}`).toBe(true);
}

// ---- what the contract allows ----

/** Operations whose input is a credential: a valid one that was never issued (or is spent) is a 401. */
const CREDENTIAL_OPERATIONS = new Set(["POST /auth/login", "POST /auth/refresh", "POST /auth/logout", "POST /auth/oauth/exchange"]);

/** 400s a valid request may get, and why the document cannot rule them out. */
const BUSINESS_REFUSALS: Record<string, { detail: RegExp; reason: string }[]> = {
  "POST /claims/{claim_id}/arguments": [
    { detail: /^arguments: /, reason: "a claim under itself, a cycle or a chain too deep depends on the stored graph" },
  ],
  "POST /claims/{claim_id}/comments": [
    { detail: /^parent_id: (no comment .* on this claim|replies can be nested)/, reason: "the parent must be a comment of the same claim, not too deep: stored data" },
  ],
  "PATCH /comments/{comment_id}": [{ detail: /^comment_id: a deleted comment/, reason: "a deleted comment stays as it is: stored data" }],
  "POST /auth/api-keys": [{ detail: /^api_keys: at most/, reason: "live keys per agent: stored data" }],
  "POST /webhooks": [{ detail: /^webhooks: at most/, reason: "endpoints per agent: stored data" }],
  "POST /moderation/reports/{report_id}/resolve": [{ detail: /^action: an agent cannot be hidden/, reason: "hiding depends on the report's target: stored data" }],
  "POST /moderation/agents/{agent_id}/suspend": [{ detail: /^until: must be in the future/, reason: "JSON Schema has no 'now'; the field's description says it" }],
  "POST /auth/password-reset/confirm": [{ detail: /^token: the link is invalid, used or expired/, reason: "a token is only valid as mailed, once" }],
  "POST /auth/email/verify/confirm": [{ detail: /^token: the link is invalid, used or expired/, reason: "a token is only valid as mailed, once" }],
  "POST /claims": [{ detail: /^(check_at: must be in the future|close_at: must not be after check_at)/, reason: "JSON Schema has no 'now' and no rule across two fields; the fields' descriptions say it" }],
  "PUT /claims/{claim_id}/check": [{ detail: /^(check_at: must be in the future|close_at: must not be after check_at)/, reason: "JSON Schema has no 'now' and no rule across two fields; the fields' descriptions say it" }],
  "PUT /auth/me/digest": [{ detail: /^frequency: a digest needs a verified email address/, reason: "whether the caller's address is verified is stored data; the operation's description says it" }],
};

/** Rules the document can state in words only; every generated request keeps them. */
const UNSTATED_RULES: Record<string, { reason: string; holds: (req: Request) => boolean }> = {
  "GET /claims": {
    reason: "min_gradient ≤ max_gradient is a rule across two parameters, which OpenAPI cannot state (min_gradient's description says it)",
    holds: (req) => !(Number(req.query.min_gradient) > Number(req.query.max_gradient)),
  },
};

/** Other answers a valid request may get where the deployment decides, and why. */
const DEPLOYMENT_REFUSALS: Record<string, { status: number; reason: string }> = {
  "GET /auth/oauth/{provider}": { status: 501, reason: "a provider without credentials is not configured on this server (here: all but GitHub)" },
};

/** Operations no generated request can succeed on, and why. */
const NO_SUCCESS: Record<string, string> = {};

/** Invalid requests answered otherwise than with 400, and why. */
const INVALID_EXCEPTIONS: Record<string, { status: number; reason: string }> = {
  "GET /auth/oauth/{provider} provider": {
    status: 404,
    reason: "a provider the service does not know is a path that names nothing: 404 `Unknown provider`, as an unknown id is (tests/api/oauth.test.ts)",
  },
};

function tally(key: string, status: number): void {
  const t = tallies.get(key) ?? new Map<string, number>();
  tallies.set(key, t);
  t.set(String(status), (t.get(String(status)) ?? 0) + 1);
}

// ---- invalid requests: one rule of one field broken ----

interface Breaking {
  label: string;
  /** The fields the answer's `errors` may name (any one of them). */
  fields: string[];
  request: fc.Arbitrary<Request>;
}

function breakings(op: Operation): Breaking[] {
  const base = validRequestArb(op);
  const out: Breaking[] = [];
  const edit = (label: string, fields: string[], value: fc.Arbitrary<unknown>, apply: (req: Request, v: unknown) => Request) =>
    out.push({ label, fields, request: keeping(fc.tuple(base, value).map(([req, v]) => apply(structuredClone(req), v)), sendable(op), `sendable ${label}`) });

  for (const p of op.params) {
    if (p.in === "query" && p.required) edit(`${p.name}: missing`, [p.name], fc.constant(null), (req) => ({ ...req, query: omit(req.query, p.name) }));
    for (const b of breachesOf(doc, p.schema, "text", listItems(p))) {
      if (p.in === "path") {
        // Path ids are opaque (any text; an unknown one is a 404). A path segment reaches the API as sent,
        // not percent-decoded, so it cannot carry a NUL: the text rule is for query values and bodies.
        if (b.rule !== "enum") continue;
        edit(`${p.name}: ${b.rule}`, [p.name], b.value, (req, v) => ({ ...req, path: { ...req.path, [p.name]: String(v) } }));
      } else {
        edit(`${p.name}: ${b.rule}`, [p.name], b.value, (req, v) => ({
          ...req,
          query: omit(req.query, p.name),
          raw: { ...req.raw, [p.name]: Array.isArray(v) ? v.map(String).join(",") : String(v) },
        }));
      }
    }
  }
  if (op.body) {
    const body = deref(doc, op.body);
    for (const k of body.required ?? []) edit(`${k}: missing`, [k], fc.constant(null), (req) => ({ ...req, body: omit(req.body ?? {}, k) }));
    // A field one of "exactly one of" names is broken alone: the others leave the body.
    for (const [k, schema] of Object.entries<Schema>(body.properties ?? {})) {
      for (const b of breachesOf(doc, schema, "json")) edit(`${k}: ${b.rule}`, [k], b.value, (req, v) => ({ ...req, body: { ...omit(req.body ?? {}, ...rivalsOf(body, k)), [k]: v } }));
    }
    // Rules across fields: exactly one of two (both given, neither given); a condition's consequence.
    for (const rule of body.oneOf ?? []) {
      const [k] = rule.required ?? [];
      const others = (body.oneOf as Schema[]).flatMap((r) => r.required ?? []).filter((o: string) => o !== k);
      if (!k) continue;
      edit(`${k} with ${others.join(", ")}`, [k, ...others, "body"], objectArb(doc, body, fixturesOf(op)), (req, full) => {
        const all = full as Record<string, unknown>;
        return { ...req, body: { ...req.body, ...Object.fromEntries([k, ...others].filter((f) => f in all).map((f) => [f, all[f]])) } };
      });
      // (Values that name the path's own resource, a claim under itself, meet a business rule first.)
      const last = out[out.length - 1];
      last.request = keeping(last.request, (req) => [k, ...others].every((f) => f in (req.body ?? {}) && !Object.values(req.path).includes(req.body![f] as string)), last.label);
    }
    if (body.oneOf) {
      const named = (body.oneOf as Schema[]).flatMap((r) => r.required ?? []);
      edit(`none of ${named.join(", ")}`, [...named, "body"], fc.constant(null), (req) => ({ ...req, body: omit(req.body ?? {}, ...named) }));
    }
    for (const rule of (body.allOf ?? []).filter((r: Schema) => r.if && r.then)) {
      const condition = Object.fromEntries(Object.entries<Schema>(rule.if.properties ?? {}).map(([k, p]) => [k, "const" in p ? p.const : p.enum?.[0]]));
      for (const [k, extra] of Object.entries<Schema>(rule.then.properties ?? {})) {
        for (const b of breachesOf(doc, { allOf: [body.properties[k], extra] }, "json").filter((b) => /^(format|pattern|maxLength)/.test(b.rule))) {
          edit(`${k} when ${JSON.stringify(condition)}: ${b.rule}`, [k], b.value, (req, v) => ({ ...req, body: { ...req.body, ...condition, [k]: v } }));
        }
      }
    }
  }
  return out;
}

/** Items of a comma-separated list hold no commas; short ones keep a list of many within the URL's size. */
function listItems(p: Param): fc.Arbitrary<string> | undefined {
  if (p.explode !== false) return undefined;
  return valueArb(doc, deref(doc, p.schema).items ?? {}, "item", {})
    .map(String)
    .filter((s) => !s.includes(",") && s.length <= 24);
}

// ---- valid requests at the edges: one field at a time ----

interface Edge {
  label: string;
  request: fc.Arbitrary<Request>;
}

function edges(op: Operation): Edge[] {
  const base = validRequestArb(op);
  const fx = fixturesOf(op);
  const out: Edge[] = [];
  // A constant outside the field's schema is no edge of it; values that must exist have none.
  const admitted = (schema: Schema) => (e: { value: fc.Arbitrary<unknown> }) => {
    const [sample] = fc.sample(e.value, { numRuns: 1, seed: 1 });
    return check(schema, sample).ok;
  };
  // (A query value at its edge must also fit in a URL: see MAX_URL.)
  const fits = (e: { value: fc.Arbitrary<unknown> }) => encodeURIComponent(String(fc.sample(e.value, { numRuns: 1, seed: 1 })[0])).length <= MAX_URL / 2;
  for (const p of op.params.filter((p) => p.in === "query" && !(p.name in fx))) {
    for (const e of edgesOf(doc, p.schema, listItems(p)).filter(admitted(p.schema)).filter(fits)) {
      const request = fc.tuple(base, e.value).map(([req, v]) => ({ ...req, query: { ...req.query, [p.name]: v } }));
      out.push({ label: `${p.name}: ${e.rule}`, request: keeping(request, (req) => sendable(op)(req) && (UNSTATED_RULES[op.name]?.holds(req) ?? true), `${p.name} at ${e.rule}`) });
    }
  }
  if (op.body) {
    const body = deref(doc, op.body);
    for (const [k, schema] of Object.entries<Schema>(body.properties ?? {})) {
      if (k in fx) continue;
      for (const e of edgesOf(doc, schema).filter(admitted(schema))) {
        const request = fc.tuple(base, e.value).map(([req, v]) => ({ ...req, body: { ...omit(req.body ?? {}, ...rivalsOf(body, k)), [k]: v } }));
        out.push({ label: `${k}: ${e.rule}`, request: keeping(request, (req) => whyInvalid(op, req) === null, `${k} at ${e.rule}`) });
      }
    }
  }
  return out;
}

/** The fields "exactly one of" sets against `k` (they leave a body that sets `k`). */
function rivalsOf(body: Schema, k: string): string[] {
  const alternatives = (body.oneOf ?? []) as Schema[];
  if (!alternatives.some((r) => r.required?.includes(k))) return [];
  return alternatives.flatMap((r) => r.required ?? []).filter((o: string) => o !== k);
}

function omit<T extends Record<string, unknown>>(o: T, ...keys: string[]): T {
  const copy = { ...o };
  for (const k of keys) delete copy[k];
  return copy;
}

// ---- the properties ----

describe("the document", () => {
  it("lists the operations, each with schemas the validator compiles", () => {
    expect(operations.length).toBeGreaterThan(60);
    for (const op of operations) {
      for (const p of op.params) expect(() => check(p.schema, "x"), `${op.name} ${p.name}`).not.toThrow();
      if (op.body) expect(() => check(op.body!, {}), op.name).not.toThrow();
    }
  });
});

for (const [index, op] of operations.entries()) {
  describe(op.name, () => {
    it("valid requests, drawn and at the edges: accepted, or refused for a business reason; every answer as the document says", async () => {
      const key = `${op.name} valid`;
      let successes = 0;
      const accepted = (label: string) => async (drawn: Request) => {
        const req = await madeWhenSent(op, drawn);
        const res = await send(op, req);
        tally(key, res.status);
        const where = `${label}${describeRequest(op, req)}\n  → ${res.status} ${res.text.slice(0, 500)}`;
        checkAnswer(op, res, where);
        if (res.status < 400) {
          successes++;
          return;
        }
        const business =
          [403, 404, 409].includes(res.status) ||
          (res.status === 401 && CREDENTIAL_OPERATIONS.has(op.name)) ||
          res.status === DEPLOYMENT_REFUSALS[op.name]?.status ||
          (res.status === 400 && (BUSINESS_REFUSALS[op.name] ?? []).some((r) => r.detail.test(res.body?.detail ?? "")));
        expect(business, `a valid request refused: ${where}`).toBe(true);
      };
      await fc.assert(fc.asyncProperty(validRequestArb(op), accepted("")), { seed: SEED + index, numRuns: RUNS, endOnFailure: true });
      for (const [i, e] of edges(op).entries()) {
        await fc.assert(fc.asyncProperty(e.request, accepted(`[${e.label}] `)), { seed: SEED + index * 1000 + 500 + i, numRuns: 1, endOnFailure: true });
      }
      if (!(op.name in NO_SUCCESS)) expect(successes, `no generated request succeeded: ${JSON.stringify(Object.fromEntries(tallies.get(key) ?? []))}`).toBeGreaterThan(0);
    });

    const cases = breakings(op);
    it.skipIf(cases.length === 0)(`invalid requests (${cases.length} rules): 400 validation_failed naming the field`, async () => {
      for (const [i, c] of cases.entries()) {
        const exception = INVALID_EXCEPTIONS[`${op.name} ${c.fields[0]}`];
        await fc.assert(
          fc.asyncProperty(c.request, async (req) => {
            const res = await send(op, req);
            tally(`${op.name} invalid`, res.status);
            const where = `[${c.label}] ${describeRequest(op, req)}\n  → ${res.status} ${res.text.slice(0, 500)}`;
            checkAnswer(op, res, where);
            if (exception) {
              expect(res.status, `${exception.reason}: ${where}`).toBe(exception.status);
              return;
            }
            expect(res.status, where).toBe(400);
            expect(res.body.code, where).toBe("validation_failed");
            const named = (res.body.errors ?? []).map((e: { field: string }) => e.field);
            expect(
              named.some((f: string) => c.fields.some((field) => f === field || f.startsWith(`${field}.`))),
              `errors must name ${c.fields.join(" or ")}: ${where}`,
            ).toBe(true);
          }),
          { seed: SEED + index * 1000 + i, numRuns: Math.max(1, Math.round(RUNS / 8)), endOnFailure: true },
        );
      }
    });
  });
}

describe("methods a path does not list", () => {
  it("answer 405 with Allow naming exactly the methods the document lists", async () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const listed = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
      const concrete = path.replace(/\{\w+\}/g, (name) => encodeURIComponent(name === "{provider}" ? "github" : name === "{target_type}" ? "claim" : claimIds[0]));
      for (const method of METHODS.map((m) => m.toUpperCase()).filter((m) => !listed.includes(m))) {
        const res = await api.request(method, concrete, method === "GET" || method === "DELETE" ? {} : { body: {} });
        const where = `${method} ${concrete} → ${res.status} ${res.text.slice(0, 200)} Allow: ${res.headers.get("allow")}`;
        expect(res.status, where).toBe(405);
        expect(res.body.code, where).toBe("method_not_allowed");
        expect((res.headers.get("allow") ?? "").split(/,\s*/).sort(), where).toEqual([...listed].sort());
      }
    }
  });
});
