// OpenAPI-driven fuzzing through real HTTP. The operations are read from GET /api/v1/openapi.json at
// run time, so every route that lands is fuzzed without touching this file. For each operation:
//   - valid requests generated from its schemas (fixture ids, hostile but storable text, boundary
//     numbers, extra mass-assignment fields), and
//   - invalid ones: missing fields, wrong JSON types, out-of-range values, too long/short strings,
//     NUL and unpaired surrogates, bodies that are not objects or not JSON or over 256 KiB, bad and
//     repeated query values, malformed and unknown path ids, missing and forged tokens.
// Every answer: never a 5xx (501 where documented), a documented status, errors as {"detail"}
// with the contract's status (400 naming the field, 404 with the resource's detail, 401 with
// "Invalid or expired token", 413), and a refused request — or any GET — changes nothing stored.
//
// Deterministic by default (FUZZ_SEED); FUZZ_RUNS multiplies the number of requests (default 1 ≈ 4000
// requests, about a minute).
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ERROR_CODES, ERROR_EXTRA_FIELDS, isErrorCode } from "../../server/errors.ts";
import { issueTokenPair } from "../../server/services/auth.ts";
import { grantAdmin } from "../../server/services/moderation.ts";
import { createAgent, startApi, type ApiResponse, type TestAgent } from "../helpers/api.ts";
import { changedTables, dbFingerprint } from "./db-state.ts";
import {
  badQueryValues,
  conforms,
  encodeSegment,
  isArraySchema,
  malformedIdArb,
  objectArb,
  operationsOf,
  outOfRangeValues,
  stringFields,
  textArb,
  UNSTORABLE_STRINGS,
  valueArb,
  wrongTypeArb,
  type JsonSchema,
  type Operation,
  type Overrides,
} from "./openapi-fuzz.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const SCALE = Math.max(0.1, Number(process.env.FUZZ_RUNS ?? 1));
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

// Behind one trusted proxy: each request's client address is the one it appended (IPv4 and IPv6).
process.env.TRUST_PROXY = "1";
// One provider configured so that the redirect can succeed (302); the others answer 501.
process.env.GITHUB_CLIENT_ID ??= "fuzz-client";
process.env.GITHUB_CLIENT_SECRET ??= "fuzz-secret";

const api = await startApi();
/** Status counts per operation and phase; FUZZ_VERBOSE=1 prints them at the end. */
const tallies: Record<string, Map<number, number>> = {};
afterAll(async () => {
  await api.close();
  if (process.env.FUZZ_VERBOSE) {
    for (const [name, tally] of Object.entries(tallies)) console.log(name.padEnd(60), JSON.stringify(Object.fromEntries([...tally].sort())));
  }
});

// ---- fixtures: three agents and a little of everything, made through the API ----

const agents = [await createAgent(api), await createAgent(api), await createAgent(api)];
const [alice, bob, carol] = agents;
const claimIds: string[] = [];
const evidenceIds: string[] = [];
const commentIds: string[] = [];
const TAGS = ["physics", "economics", "health", "fuzz-tag"];

async function made(res: Promise<ApiResponse>): Promise<any> {
  const r = await res;
  if (r.status >= 300) throw new Error(`fixture failed: ${r.status} ${r.text}`);
  return r.body;
}
for (const [i, author] of agents.entries()) {
  // Each with a check against the world (docs/features/checks.md), so its reads answer one.
  const check = { criteria: "Checked against the fixture's annual report", check_at: "2099-01-01T00:00:00.000Z" };
  const claim = await made(api.post("/claims", { statement: `Fixture claim number ${i} about the world`, tags: [TAGS[i], TAGS[3]], check }, { token: author.token }));
  claimIds.push(claim.id);
}
claimIds.push((await made(api.post("/claims", { statement: "A child claim of the first fixture claim", parent_ids: [claimIds[0]] }, { token: bob.token }))).id);
for (const [i, voter] of agents.entries()) {
  const target = claimIds[(i + 1) % 3];
  await made(api.post(`/claims/${target}/vote`, { value: 0.25 * (i + 1) }, { token: voter.token }));
  evidenceIds.push((await made(api.post(`/claims/${target}/evidence`, { position: "supports", content_type: "text", content: `Evidence ${i}` }, { token: voter.token }))).id);
  evidenceIds.push((await made(api.post(`/claims/${target}/evidence`, { position: "opposes", content_type: "link", content: `https://example.org/${i}` }, { token: voter.token }))).id);
  const comment = await made(api.post(`/claims/${target}/comments`, { content: `Comment ${i}` }, { token: voter.token }));
  commentIds.push(comment.id);
  commentIds.push((await made(api.post(`/claims/${target}/comments`, { content: `Reply ${i}`, parent_id: comment.id }, { token: agents[(i + 1) % 3].token }))).id);
  await made(api.post(`/claims/${target}/bookmark`, undefined, { token: voter.token }));
  await made(api.post(`/claims/${target}/follow`, undefined, { token: voter.token }));
}
// Refresh tokens of logins that belong to nobody's requests here: refresh and logout consume them.
const refreshPool: string[] = [];
for (let i = 0; i < runs(30); i++) refreshPool.push((await issueTokenPair(agents[i % 3].id)).refresh_token);

// API keys of the fixture agents (DELETE /auth/api-keys/{key_id} revokes some, or answers 404).
const keyIds: string[] = [];
for (let i = 0; i < 6; i++) keyIds.push((await made(api.post("/auth/api-keys", { name: `Fixture key ${i}`, scopes: ["read"] }, { token: agents[i % 3].token }))).id);

// Moderation (docs/features/moderation.md): an admin calls the moderation operations, on content and agents of their
// own (victims), so hiding and suspending never take the other operations' fixtures away.
const moderator = await createAgent(api);
await grantAdmin(moderator.username);
const victims = [await createAgent(api), await createAgent(api)];
const victimClaim = await made(api.post("/claims", { statement: "A claim for the moderators to act on" }, { token: victims[0].token }));
const victimEvidence = await made(api.post(`/claims/${victimClaim.id}/evidence`, { position: "neutral", content_type: "text", content: "Evidence to moderate" }, { token: victims[1].token }));
const victimComment = await made(api.post(`/claims/${victimClaim.id}/comments`, { content: "A comment to moderate" }, { token: victims[1].token }));
const reportIds: string[] = [];
for (const [i, [target_type, target_id]] of ([["claim", victimClaim.id], ["evidence", victimEvidence.id], ["comment", victimComment.id], ["agent", victims[0].id]] as const).entries()) {
  reportIds.push((await made(api.post("/reports", { target_type, target_id, reason: "spam" }, { token: agents[i % 3].token }))).id);
}
const isModeration = (op: { path: string }) => op.path.startsWith("/moderation") || op.path.startsWith("/admin");
// Operations that end the caller's logins or the account itself (docs/features/accounts.md) run as
// agents of their own, one each, so the other operations' fixtures keep their tokens.
const OWN_ACCOUNT_OPERATIONS = ["POST /auth/password", "POST /auth/logout-everywhere", "POST /auth/me/delete"];
const ownAccountAgents = new Map<string, TestAgent>();
// The deleted one's password is none the fuzzer sends: deletion is refused (403) and its token lives on.
for (const name of OWN_ACCOUNT_OPERATIONS) {
  ownAccountAgents.set(name, await createAgent(api, name.endsWith("/delete") ? { password: "Not-fuzzed-9" } : {}));
  // The invalid requests have an agent of their own: a valid sign-out everywhere has ended the first one's logins.
  ownAccountAgents.set(`${name} invalid`, await createAgent(api, name.endsWith("/delete") ? { password: "Not-fuzzed-9" } : {}));
}
// Webhooks of the fixture agents, with a delivery each (a ping: queued, never sent from here). The URL
// is a public address literal: it passes the URL rules without DNS.
const WEBHOOK_URL = "https://93.184.215.14/hook";
const webhookIds: string[] = [];
const deliveryIds: string[] = [];
for (const agent of agents) {
  const hook = await made(api.post("/webhooks", { url: WEBHOOK_URL, events: ["claim.voted"] }, { token: agent.token }));
  webhookIds.push(hook.id);
  await made(api.post(`/webhooks/${hook.id}/test`, undefined, { token: agent.token }));
  deliveryIds.push(...(await made(api.get(`/webhooks/${hook.id}/deliveries`, { token: agent.token }))).deliveries.map((d: any) => d.id));
}

// Arguments between fixture claims (docs/features/arguments.md), for the relevance operations.
const argumentIds: string[] = [];
for (let i = 0; i + 1 < Math.min(claimIds.length, 4); i++) {
  argumentIds.push((await made(api.post(`/claims/${claimIds[i]}/arguments`, { stance: "supports", child_claim_id: claimIds[i + 1] }, { token: agents[0].token }))).id);
}

let emailCounter = 0;
/** Values that make sense for well-known names: fixture ids, fresh emails, real refresh tokens, URLs for content. */
const overrides: Overrides = {
  claim_id: fc.constantFrom(...claimIds),
  evidence_id: fc.constantFrom(...evidenceIds),
  comment_id: fc.constantFrom(...commentIds),
  argument_id: fc.constantFrom(...argumentIds),
  key_id: fc.constantFrom(...keyIds, "00000000-0000-4000-8000-000000000000"),
  webhook_id: fc.constantFrom(...webhookIds, "00000000-0000-4000-8000-000000000000"),
  delivery_id: fc.constantFrom(...deliveryIds, "00000000-0000-4000-8000-000000000000"),
  notification_id: fc.constant("00000000-0000-4000-8000-000000000000"),
  url: fc.constantFrom(WEBHOOK_URL, "https://127.0.0.1/hook", "http://93.184.215.14/"),
  agent_id: fc.constantFrom(...agents.map((a) => a.id), ...agents.map((a) => a.username), ...agents.map((a) => a.username.toUpperCase())),
  tag: fc.constantFrom(...TAGS, "no-such-tag"),
  provider: fc.constantFrom("github", "google", "twitter", "x", "myspace"),
  email: fc.oneof(
    fc.nat().map((n) => `fuzz${emailCounter++}_${n}@example.test`),
    fc.constantFrom(...agents.map((a) => a.email), "nobody@example.test"),
  ),
  password: fc.oneof(fc.constant("Password123"), fc.stringMatching(/^[A-Z][a-z]{3,12}[0-9]{1,6}$/)),
  // A password change to the same password: it succeeds and leaves the account as it was.
  current_password: fc.constant("Password123"),
  new_password: fc.constant("Password123"),
  refresh_token: fc.oneof(
    fc.constant(null).map(() => refreshPool.pop() ?? "rt_spent"),
    fc.stringMatching(/^rt_[A-Za-z0-9_-]{43}$/),
  ),
  code: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  redirect_to: fc.constantFrom("/", "/claims", `/claims/${claimIds[0]}?tab=evidence#top`, "/profiles/x?a=1&b=2"),
  tags: fc.array(fc.oneof(fc.constantFrom(...TAGS), fc.stringMatching(/^[a-z0-9_-]{1,20}$/), fc.constantFrom(" Mixed-Case ", "dup", "dup")), { maxLength: 10 }),
  parent_ids: fc.subarray(claimIds, { maxLength: Math.min(5, claimIds.length) }),
  parent_id: fc.option(fc.constantFrom(...commentIds), { nil: null }),
  statement: textArb(10, 5000).map((s) => (s.trim().length >= 10 ? s : `${s} padded to a proper statement`)),
  content: fc.oneof(
    textArb(1, 5000).filter((s) => s.trim().length > 0),
    fc.webUrl({ validSchemes: ["http", "https"] }),
  ),
  q: textArb(2, 200).filter((s) => s.trim().length >= 2),
};

/** The moderation operations' own targets (see the fixtures). */
const moderationOverrides: Overrides = {
  ...overrides,
  agent_id: fc.constantFrom(...victims.map((a) => a.id)),
  target_id: fc.constantFrom(victimClaim.id, victimEvidence.id, victimComment.id),
  report_id: fc.constantFrom(...reportIds),
};
/** POST /reports: the victims' content and the victims. */
overrides.target_id = fc.constantFrom(victimClaim.id, victimEvidence.id, victimComment.id, ...victims.map((a) => a.id));
const overridesOf = (op: { path: string }) => (isModeration(op) ? moderationOverrides : overrides);

/** Fields a client has no business setting; the server must ignore them (mass assignment). */
const massAssignmentArb = fc.record(
  {
    id: fc.uuid(),
    author_id: fc.constantFrom(...agents.map((a) => a.id)),
    agent_id: fc.constantFrom(...agents.map((a) => a.id)),
    reputation_score: fc.double({ noNaN: true }),
    reputation: fc.integer(),
    tier: fc.constant("trusted"),
    gradient: fc.double({ min: 0, max: 1, noNaN: true }),
    vote_count: fc.integer(),
    evidence_count: fc.integer(),
    upvotes: fc.integer(),
    is_edited: fc.boolean(),
    is_deleted: fc.boolean(),
    depth: fc.integer(),
    created_at: fc.constant("2000-01-01T00:00:00.000Z"),
  },
  { requiredKeys: [] },
);

// ---- requests ----

interface Expectation {
  status: number;
  detail?: string;
  /** The field the detail must name. */
  field?: string;
}

interface FuzzRequest {
  kind: string;
  path: Record<string, string>;
  /** Pairs, so that a key may repeat. */
  query: [string, string][];
  body?: unknown;
  /** Sent as is, with a JSON content type. */
  rawBody?: string;
  /** Send a JSON body this many bytes long (built at send time: counterexamples stay readable). */
  oversize?: number;
  /** Send {"a":{"a":…1}} nested this deep (built at send time). */
  nesting?: number;
  /** Raw Authorization header; undefined = no header. */
  authorization?: string;
  expect?: Expectation;
}

const bearer = (token: string) => `Bearer ${token}`;
const CREDENTIAL_OPERATIONS = new Set([
  "POST /auth/register",
  "POST /auth/login",
  "POST /auth/refresh",
  "POST /auth/logout",
  "POST /auth/oauth/exchange",
  "POST /auth/password-reset",
  "POST /auth/password-reset/confirm",
  "POST /auth/email/verify/confirm",
]);
const agentTokenArb = fc.constantFrom(...agents.map((a) => bearer(a.token)));
const moderatorTokenArb = fc.constant(bearer(moderator.token));
/** The token a valid request of `op` is sent with. */
function tokenArbOf(op: { name: string; path: string }, phase: "valid" | "invalid"): fc.Arbitrary<string> {
  const own = ownAccountAgents.get(phase === "valid" ? op.name : `${op.name} invalid`);
  if (own) return fc.constant(bearer(own.token));
  return isModeration(op) ? moderatorTokenArb : agentTokenArb;
}

function urlOf(op: Operation, req: FuzzRequest): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeSegment(req.path[name] ?? ""));
  const qs = req.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeSegment(v)}`).join("&");
  return qs ? `${path}?${qs}` : path;
}

function describeRequest(op: Operation, req: FuzzRequest): string {
  let body = req.rawBody ?? (req.body === undefined ? "" : JSON.stringify(req.body));
  if (req.oversize) body += ` + ${req.oversize} bytes of padding`;
  if (req.nesting) body = `{"a": … nested ${req.nesting} levels}`;
  if (body.length > 300) body = `${body.slice(0, 300)}… (${body.length} chars)`;
  return `[${req.kind}] ${op.method} ${urlOf(op, req).slice(0, 300)} ${body} auth=${req.authorization ? req.authorization.slice(0, 40) : "none"}`;
}

let sent = 0;
/** Clients over IPv4, IPv6 (limited by /64) and IPv4-mapped IPv6, as our proxy reports them. */
function clientAddress(): string {
  const n = ++sent;
  const hex = n.toString(16);
  return [`198.51.100.${n % 250}`, `2001:db8:${hex}:${hex}::${hex}`, `::ffff:203.0.113.${n % 250}`, `fe80::${hex}%eth0`][n % 4];
}

async function send(op: Operation, req: FuzzRequest): Promise<ApiResponse> {
  const headers: Record<string, string> = { "x-forwarded-for": `192.0.2.1, ${clientAddress()}` };
  if (req.authorization !== undefined) headers.authorization = req.authorization;
  if (req.oversize !== undefined) {
    const rawBody = JSON.stringify({ ...(req.body as object), padding: "p".repeat(req.oversize) });
    return api.request(op.method, urlOf(op, req), { rawBody, headers: { ...headers, "content-type": "application/json" } });
  }
  if (req.nesting !== undefined) {
    const rawBody = `${'{"a":'.repeat(req.nesting)}1${"}".repeat(req.nesting)}`;
    return api.request(op.method, urlOf(op, req), { rawBody, headers: { ...headers, "content-type": "application/json" } });
  }
  if (req.rawBody !== undefined) return api.request(op.method, urlOf(op, req), { rawBody: req.rawBody, headers: { ...headers, "content-type": "application/json" } });
  return api.request(op.method, urlOf(op, req), { body: req.body, headers });
}

function queryPairs(name: string, schema: JsonSchema, value: unknown): [string, string][] {
  if (Array.isArray(value)) return value.map((v) => [name, String(v)]);
  return [[name, String(value)]];
}

/** The answer a malformed or unknown id gets, by parameter name. */
const NOT_FOUND_DETAIL: Record<string, string> = {
  claim_id: "Claim not found",
  evidence_id: "Evidence not found",
  comment_id: "Comment not found",
  argument_id: "Argument not found",
  agent_id: "Agent not found",
  webhook_id: "Webhook not found",
  notification_id: "Notification not found",
};

/** The least surprising valid value of a schema: what a careful client would send. */
const CANONICAL: Record<string, unknown> = {
  statement: "A canonical claim statement for the fuzzer",
  content: "Canonical content",
  value: 0.5,
  email: "canonical@example.test",
  password: "Password123",
  new_password: "Password123",
  username: "canonical_user",
  refresh_token: "rt_canonical",
  code: "canonical-code",
  scopes: ["read"],
  url: "https://93.184.215.14/hook",
  events: ["ping"],
  check_at: "2099-01-01T00:00:00.000Z",
  evidence_url: "https://example.org/evidence",
};
function canonical(schema: JsonSchema, name: string): unknown {
  if (name in CANONICAL) return CANONICAL[name];
  if (schema.enum) return schema.enum[0];
  // (anyOf/oneOf beside properties are rules across an object's fields: the object keeps the first.)
  const variants = schema.properties ? undefined : (schema.anyOf ?? schema.oneOf);
  if (variants) return canonical(variants[0], name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "boolean":
      return true;
    case "integer":
    case "number":
      return schema.minimum ?? 0;
    case "array":
      return [];
    case "null":
      return null;
    case "object":
      return Object.fromEntries([...(schema.required ?? []), ...(schema.oneOf?.[0]?.required ?? [])].map((k) => [k, canonical(schema.properties?.[k] ?? {}, k)]));
    default:
      return "x".repeat(Math.max(1, schema.minLength ?? 1));
  }
}

function validPathArb(op: Operation): fc.Arbitrary<Record<string, string>> {
  return fc.record(Object.fromEntries(op.pathParams.map((p) => [p.name, valueArb(p.schema, p.name, overridesOf(op)).map(String)])));
}

function validQueryArb(op: Operation): fc.Arbitrary<[string, string][]> {
  if (op.queryParams.length === 0) return fc.constant([]);
  return fc
    .tuple(...op.queryParams.map((p) => fc.option(valueArb(p.schema, p.name, overridesOf(op)), { freq: 2 }).map((v) => (v === null ? [] : queryPairs(p.name, p.schema, v)))))
    .map((parts) => parts.flat());
}

function validRequestArb(op: Operation): fc.Arbitrary<FuzzRequest> {
  const tokenArb = tokenArbOf(op, "valid");
  const auth = op.secured ? tokenArb : fc.option(tokenArb, { nil: undefined });
  const body = op.body
    ? fc.tuple(objectArb(op.body, overridesOf(op)), fc.option(massAssignmentArb, { freq: 3 })).map(([b, extra]) => (extra ? { ...extra, ...b } : b))
    : fc.constant(undefined);
  return fc.record({ kind: fc.constant("valid"), path: validPathArb(op), query: validQueryArb(op), body, authorization: auth }) as fc.Arbitrary<FuzzRequest>;
}

/** Invalid requests, each with the answer the contract gives it. Everything else about them is valid. */
function invalidRequestArb(op: Operation): fc.Arbitrary<FuzzRequest> {
  const tokenArb = tokenArbOf(op, "invalid");
  const takesBody = op.method === "POST" || op.method === "PATCH" || op.method === "PUT";
  const base = {
    path: validPathArb(op),
    query: fc.constant<[string, string][]>([]),
    authorization: op.secured ? tokenArb : fc.option(tokenArb, { nil: undefined }),
  };
  const canonicalBody = op.body ? canonical(op.body, "body") : takesBody ? {} : undefined;
  const withBody = (kind: string, body: fc.Arbitrary<unknown>, expect: Expectation) =>
    fc.record({ kind: fc.constant(kind), ...base, body, expect: fc.constant(expect) }) as fc.Arbitrary<FuzzRequest>;
  const withRaw = (kind: string, raw: fc.Arbitrary<string>, expect: Expectation) =>
    fc.record({ kind: fc.constant(kind), ...base, rawBody: raw, expect: fc.constant(expect) }) as fc.Arbitrary<FuzzRequest>;
  const cases: fc.Arbitrary<FuzzRequest>[] = [];

  // -- bodies --
  if (op.body) {
    const props = op.body.properties ?? {};
    const valid = objectArb(op.body, overridesOf(op));
    for (const field of op.body.required ?? []) {
      cases.push(withBody(`missing ${field}`, valid.map(({ [field]: _, ...rest }) => rest), { status: 400, field }));
    }
    for (const [field, schema] of Object.entries(props)) {
      const wrong = wrongTypeArb(schema);
      if (wrong) cases.push(withBody(`wrong type for ${field}`, fc.tuple(valid, wrong).map(([b, v]) => ({ ...b, [field]: v })), { status: 400, field }));
      const outOfRange = outOfRangeValues(schema);
      if (outOfRange.length) {
        cases.push(withBody(`out of range ${field}`, fc.tuple(valid, fc.constantFrom(...outOfRange)).map(([b, v]) => ({ ...b, [field]: v })), { status: 400, field }));
      }
    }
    for (const field of stringFields(op.body)) {
      const bad = fc.constantFrom(...UNSTORABLE_STRINGS).map((s) => (isArraySchema(props[field]) ? ["fine", s] : s));
      cases.push(withBody(`unstorable text in ${field}`, fc.tuple(valid, bad).map(([b, v]) => ({ ...b, [field]: v })), { status: 400, field }));
    }
  }
  if (takesBody) {
    cases.push(withRaw("body not an object", fc.constantFrom("[]", "[{}]", '"text"', "42", "true", "null"), { status: 400, detail: "body: must be a JSON object" }));
    const nesting = fc.integer({ min: 33, max: 40_000 });
    cases.push(fc.record({ kind: fc.constant("nested too deep"), ...base, nesting, expect: fc.constant({ status: 400, detail: "body: nested more than 32 levels deep" }) }) as fc.Arbitrary<FuzzRequest>);
    cases.push(withRaw("malformed JSON", fc.constantFrom("{", '{"a":}', "{'a': 1}", "{\"a\": 1,}", "NaN", "{\"a\": undefined}", "\u0000", "{} {}"), { status: 400, detail: "body: malformed JSON" }));
    const oversize = fc.integer({ min: 256 * 1024 + 1, max: 600 * 1024 });
    cases.push(fc.record({ kind: fc.constant("body over 256 KiB"), ...base, body: fc.constant(canonicalBody), oversize, expect: fc.constant({ status: 413 }) }) as fc.Arbitrary<FuzzRequest>);
  }

  // -- query strings --
  for (const p of op.queryParams) {
    const bad = badQueryValues(p.schema);
    if (bad.length) {
      cases.push(fc.record({ kind: fc.constant(`bad ${p.name}`), ...base, query: fc.constantFrom(...bad).map((v) => [[p.name, v]] as [string, string][]), body: fc.constant(canonicalBody), expect: fc.constant({ status: 400, field: p.name }) }) as fc.Arbitrary<FuzzRequest>);
    }
    cases.push(fc.record({ kind: fc.constant(`NUL in ${p.name}`), ...base, query: fc.constantFrom("a\u0000b", "\u0000", "ab\u0000").map((v) => [[p.name, v]] as [string, string][]), body: fc.constant(canonicalBody), expect: fc.constant({ status: 400, field: p.name }) }) as fc.Arbitrary<FuzzRequest>);
    if (!isArraySchema(p.schema)) {
      const v = canonical(p.schema, p.name);
      cases.push(fc.record({ kind: fc.constant(`repeated ${p.name}`), ...base, query: fc.constant<[string, string][]>([[p.name, String(v)], [p.name, String(v)]]), body: fc.constant(canonicalBody), expect: fc.constant({ status: 400, field: p.name }) }) as fc.Arbitrary<FuzzRequest>);
    }
  }

  // -- path ids: malformed or unknown is "not found" (the adapter hands a path segment over as sent,
  // "%00" included; a NUL in an id sent as input is the text guard's 400: trpc-fuzz.test.ts) --
  for (const p of op.pathParams.filter((p) => p.name in NOT_FOUND_DETAIL)) {
    const badId = fc.oneof(malformedIdArb, fc.uuid({ version: 4 }));
    const path = fc.tuple(validPathArb(op), badId).map(([valid, id]) => ({ ...valid, [p.name]: id }));
    cases.push(fc.record({ kind: fc.constant(`unknown ${p.name}`), ...base, path, body: fc.constant(canonicalBody), expect: fc.constant({ status: 404, detail: NOT_FOUND_DETAIL[p.name] }) }) as fc.Arbitrary<FuzzRequest>);
  }

  // -- tokens --
  const unauthorized: Expectation = { status: 401, detail: "Invalid or expired token" };
  if (op.secured) {
    cases.push(fc.record({ kind: fc.constant("no token"), ...base, authorization: fc.constant(undefined), body: fc.constant(canonicalBody), expect: fc.constant(unauthorized) }) as fc.Arbitrary<FuzzRequest>);
  }
  const printable = fc.string({ unit: fc.mapToConstant({ num: 95, build: (v) => String.fromCharCode(v + 32) }), minLength: 1, maxLength: 300 });
  const forged = fc.oneof(
    printable.map((s) => `Bearer ${s}`),
    printable,
    fc.constantFrom("Bearer", "Bearer a.b.c", "Basic dXNlcjpwYXNz", `Token ${alice.token}`, `Bearer ${alice.token}x`, `Bearer ${alice.token.slice(0, -2)}`, `Bearer ${alice.refreshToken}`, `Bearer ${alice.token} ${bob.token}`),
    fc.constantFrom(...agents).map((a) => {
      const [h, p, s] = a.token.split(".");
      const payload = JSON.parse(Buffer.from(p, "base64url").toString());
      return `Bearer ${h}.${Buffer.from(JSON.stringify({ ...payload, sub: agents[0].id === a.id ? bob.id : alice.id })).toString("base64url")}.${s}`;
    }),
  ).filter((h) => h.trim() !== "" && !agents.some((a) => h.trim() === bearer(a.token)));
  // The credential endpoints ignore any Authorization header (docs/security.md#every-way-in): a forged one is no 401 there.
  if (!CREDENTIAL_OPERATIONS.has(op.name)) {
    cases.push(fc.record({ kind: fc.constant("forged token"), ...base, authorization: forged, body: fc.constant(canonicalBody), expect: fc.constant(unauthorized) }) as fc.Arbitrary<FuzzRequest>);
  }

  return fc.oneof(...cases);
}

// ---- checking an answer ----

const LEAKS = /invalid byte sequence|Prisma|P20\d\d|node_modules|\.ts:\d+|at async |ECONNREFUSED|syntax error at or near|violates .* constraint/i;
let fingerprint: Record<string, string> | undefined;

async function exercise(op: Operation, req: FuzzRequest, tally: Map<number, number>): Promise<void> {
  const before = (fingerprint ??= await dbFingerprint());
  const res = await send(op, req);
  const after = await dbFingerprint();
  fingerprint = after;
  tally.set(res.status, (tally.get(res.status) ?? 0) + 1);
  const where = `${describeRequest(op, req)}\n  → ${res.status} ${res.text.slice(0, 400)}`;

  expect(res.status >= 500 && !(res.status === 501 && op.statuses.has(501)), `server error: ${where}`).toBe(false);
  expect(op.statuses.has(res.status), `status not in the document: ${where}`).toBe(true);
  expect(res.headers.get("x-ratelimit-limit"), `rate-limit headers: ${where}`).toMatch(/^\d+$/);
  expect(res.headers.get("x-content-type-options"), where).toBe("nosniff");

  if (res.status === 204 || res.status === 302) {
    expect(res.text, where).toBe("");
  } else if (op.path.endsWith("/tree") && res.status === 200 && /^text\/plain/.test(res.headers.get("content-type") ?? "")) {
    // ?format=argdown: the tree as Argdown text (docs/features/arguments.md#lists-and-the-tree).
    expect(res.text.length, where).toBeGreaterThan(0);
  } else {
    expect(res.headers.get("content-type"), where).toMatch(/^application\/json/);
    expect(res.body !== null && typeof res.body === "object", `not a JSON object: ${where}`).toBe(true);
  }
  if (res.status >= 400) {
    expect(typeof res.body.detail === "string" && res.body.detail.length > 0, `no detail: ${where}`).toBe(true);
    const code: unknown = res.body.code;
    expect(isErrorCode(code) && ERROR_CODES[code].status === res.status, `no code of status ${res.status}: ${where}`).toBe(true);
    const allowed = new Set<string>(["code", "detail", "errors", ...ERROR_EXTRA_FIELDS]);
    expect(Object.keys(res.body).every((k) => allowed.has(k)), `extra keys in an error: ${where}`).toBe(true);
    if ("errors" in res.body) {
      expect(Array.isArray(res.body.errors) && res.body.errors.every((e: any) => typeof e.field === "string" && typeof e.message === "string"), where).toBe(true);
    }
    // Every validation failure names its fields.
    if (res.body.code === "validation_failed") expect(res.body.errors?.length, `a validation_failed without errors: ${where}`).toBeGreaterThan(0);
    expect(LEAKS.test(res.body.detail), `internal detail leaked: ${where}`).toBe(false);
    expect(changedTables(before, after), `a refused request changed the database: ${where}`).toEqual([]);
  }
  if (op.method === "GET") expect(changedTables(before, after), `a GET changed the database: ${where}`).toEqual([]);

  if (req.expect) {
    expect(res.status, `expected ${req.expect.status}: ${where}`).toBe(req.expect.status);
    if (req.expect.detail) expect(res.body.detail, where).toBe(req.expect.detail);
    if (req.expect.field) expect(res.body.detail, `the detail must name ${req.expect.field}: ${where}`).toContain(req.expect.field);
  }
}

// ---- the operations, as served ----

const doc = (await api.get("/openapi.json")).body;
const operations = operationsOf(doc);

/** Operations whose success cannot be reached by generated requests alone, and why. */
const NO_GENERATED_SUCCESS: Record<string, string> = {
  "POST /auth/password-reset/confirm": "a valid token only comes by mail (tests/api/accounts.test.ts)",
  "POST /auth/email/verify/confirm": "a valid token only comes by mail (tests/api/accounts.test.ts)",
  "POST /auth/me/delete": "a deletion would end the fixtures' run (tests/api/account-deletion.test.ts)",
  "POST /auth/oauth/exchange": "a valid code only comes out of a provider sign-in (tests/e2e/oauth.spec.ts)",
  "POST /notifications/{notification_id}/read": "notifications come from the worker's fan-out, not running here (tests/api/notifications.test.ts)",
  "POST /webhooks/{webhook_id}/rotate-secret": "DELETE /webhooks/{webhook_id} runs first and removes the fixtures (tests/api/webhooks.test.ts)",
  "POST /webhooks/{webhook_id}/test": "DELETE /webhooks/{webhook_id} runs first and removes the fixtures (tests/api/webhooks.test.ts)",
  "POST /webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver": "DELETE /webhooks/{webhook_id} runs first and removes the fixtures (tests/api/webhooks.test.ts)",
  "POST /claims/{claim_id}/outcome": "an outcome is proposed only after a check's check_at, by an account with standing and reputation (tests/api/checks-api.test.ts)",
  "POST /claims/{claim_id}/outcome/dispute": "only a proposed outcome is disputed (tests/api/checks-api.test.ts)",
  "POST /moderation/claims/{claim_id}/outcome": "only a disputed outcome is settled (tests/api/checks-api.test.ts)",
  "PATCH /claims/{claim_id}": "the fixture claims are voted on or another agent's: an edit before the first vote is in tests/api/claim-edits.test.ts",
  "POST /digest/unsubscribe": "a valid token only comes by mail (tests/api/digest.test.ts)",
};
/** bcrypt makes these slow (~0.1 s a request). */
const SLOW = new Set(["POST /auth/register", "POST /auth/login"]);

describe("the document", () => {
  it("lists the operations the fuzzer runs", () => {
    expect(operations.length).toBeGreaterThan(30);
    for (const op of operations) expect(op.statuses.size, op.name).toBeGreaterThan(0);
    // The generators' own sanity: a canonical body conforms to its schema.
    for (const op of operations.filter((o) => o.body)) expect(conforms(op.body!, canonical(op.body!, "body")), op.name).toBe(true);
  });
});

for (const op of operations) {
  describe(op.name, () => {
    it("valid requests: no 5xx, documented statuses, refusals change nothing", async () => {
      const tally = (tallies[`${op.name} valid`] = new Map<number, number>());
      await fc.assert(
        fc.asyncProperty(validRequestArb(op), (req) => exercise(op, req, tally)),
        { seed: SEED, numRuns: runs(SLOW.has(op.name) ? 8 : 16) },
      );
      const successes = [...tally].filter(([s]) => s < 400).reduce((n, [, c]) => n + c, 0);
      if (!(op.name in NO_GENERATED_SUCCESS)) {
        expect(successes, `no generated request succeeded: ${JSON.stringify([...tally])}`).toBeGreaterThan(0);
      }
    });

    it("invalid requests: the contract's error, nothing changed", async () => {
      const tally = (tallies[`${op.name} invalid`] = new Map<number, number>());
      await fc.assert(
        fc.asyncProperty(invalidRequestArb(op), (req) => exercise(op, req, tally)),
        { seed: SEED, numRuns: runs(40) },
      );
    });
  });
}
