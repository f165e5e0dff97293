// A stateful model test (docs/testing.md): fast-check generates sequences of what people do —
// register, verify the address, ask for and complete a password reset, change the password, sign out
// everywhere, sign in on the web, create and revoke API keys, authorise and revoke an MCP
// client, write claims, arguments, evidence and comments, vote, follow, bookmark, report, say the
// account is automated or not, delete the account — among which staff suspend, unsuspend, hide and
// restore, and the standing job restates the accounts whose standing may have changed
// (docs/features/consensus.md#standing). A model beside the real service
// knows which credentials each person holds and which of them must still work (docs/security.md,
// "Which action ends which credential"). After every step: no answer is a 5xx, checkInvariants()
// (what `npm run check:invariants` runs) finds nothing, after every step that should end credentials
// each credential the person ever held answers as the model says, and after every other step a few
// ended credentials, in turn, are tried again.
//
// Real parts: the REST adapter over HTTP, the web UI's tRPC endpoint with a session cookie, the OAuth
// server for MCP clients over HTTP (tests/helpers/mcp-client.ts) and /mcp, mail through a real SMTP
// server. Knobs (docs/testing.md): MODEL_SEED, MODEL_RUNS, MODEL_COMMANDS, MODEL_SHRINK_SECONDS.
import fc from "fast-check";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, it } from "vitest";
import { GET as webGet, POST as webPost } from "../../app/api/trpc/[trpc]/route.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { drainStanding } from "../../server/services/standing.ts";
import { grantAdmin } from "../../server/services/moderation.ts";
import { startWebSession } from "../../server/services/web-sessions.ts";
import { handleMcp } from "../../server/mcp/handler.ts";
import { MAX_ARGUMENT_DEPTH } from "../../server/domain/arguments.ts";
import { createAgent, startApi, type ApiResponse, type RequestOptions, type TestAgent, type TestApi } from "../helpers/api.ts";
import { startMcpWorld, type CookieJar, type McpWorld } from "../helpers/mcp-client.ts";
import { afterSignUpMail, startSmtpSink, tokenIn, type SmtpSink } from "../helpers/smtp-sink.ts";

const SEED = Number(process.env.MODEL_SEED ?? 35_035);
const RUNS = Number(process.env.MODEL_RUNS ?? 12);
const MAX_COMMANDS = Number(process.env.MODEL_COMMANDS ?? 60);
/** Shrinking replays whole sequences against the service: past this, a failure is reported as it stands. */
const SHRINK_SECONDS = Number(process.env.MODEL_SHRINK_SECONDS ?? 90);
const PEOPLE = 3;

let api: TestApi;
let smtp: SmtpSink;
let mcp: McpWorld;
let admin: TestAgent;
let moderator: TestAgent;
let mcpClientId: string;

/** The run being executed: its number (names and addresses are unique per run) and what it did. */
let run: { n: number; trace: string[] } = { n: 0, trace: [] };
let runs = 0;
/** Steps taken per command and the time they took, over every run (printed at the end). */
const stepsTaken = new Map<string, { n: number; ms: number }>();

// ---------------------------------------------------------------------------------------------------
// The model

/** `account`: which of the slot's accounts it was given to (a slot registers anew after a deletion). */
interface TokenPair {
  kind: "login";
  account: number;
  access: string;
  refresh: string;
  live: boolean;
}
interface WebSession {
  kind: "web";
  account: number;
  cookie: string;
  live: boolean;
}
interface ApiKey {
  kind: "apiKey";
  account: number;
  id: string;
  key: string;
  live: boolean;
}
interface McpClient {
  kind: "mcp";
  account: number;
  jar: CookieJar;
  access: string;
  refresh: string;
  /** Its access and refresh tokens. */
  live: boolean;
  /** The grant, the person's consent: the client's own revocation of an access token ends the tokens only (RFC 7009). */
  consent: boolean;
  /** The OAuth server's browser session of the consent: with the consent, a code again without asking. */
  sessionLive: boolean;
}
type Credential = TokenPair | WebSession | ApiKey | McpClient;

interface ResetLink {
  token: string;
  live: boolean;
}

interface Person {
  slot: number;
  state: "none" | "active" | "deleted";
  id: string;
  username: string;
  email: string;
  password: string;
  verified: boolean;
  suspended: boolean;
  /** When the last suspension began (ms). */
  suspendedAt?: number;
  /** Every credential the slot's accounts were ever given (a deleted account's stay here, dead). */
  creds: Credential[];
  links: ResetLink[];
  accounts: number;
}

interface Claim {
  id: string;
  authorId: string;
  hidden: boolean;
  /** Links above it (the arguments here form a tree: each child is a new claim). */
  depth: number;
}
interface Argument {
  id: string;
  parent: number;
  child: number;
}
interface Item {
  id: string;
  claim: number;
  authorId: string;
  hidden: boolean;
}

interface Model {
  people: Person[];
  claims: Claim[];
  args: Argument[];
  evidence: Item[];
  comments: Item[];
  /** `${reporterId} ${targetType} ${targetId}`: open reports. */
  reports: Set<string>;
}

const TOMBSTONE = "deleted account";
/** Credentials a person may hold at once (beyond this the model mints no more). */
const MAX_LIVE = 6;

const live = (p: Person) => p.creds.filter((c) => c.live);
const ofKind = <K extends Credential["kind"]>(p: Person, ...kinds: K[]) =>
  live(p).filter((c): c is Extract<Credential, { kind: K }> => (kinds as string[]).includes(c.kind));
const pickOf = <T>(list: T[], pick: number): T | undefined => (list.length ? list[pick % list.length] : undefined);
const active = (p: Person) => p.state === "active";
const claimVisible = (m: Model, i: number) => !m.claims[i].hidden;
const itemVisible = (m: Model, item: Item) => !item.hidden && claimVisible(m, item.claim);
const short = (id: string) => id.slice(0, 8);

function endAll(p: Person) {
  for (const c of p.creds) {
    c.live = false;
    if (c.kind === "mcp") Object.assign(c, { consent: false, sessionLive: false });
  }
}

// ---------------------------------------------------------------------------------------------------
// Talking to the service: every answer is traced and none may be a 5xx.

class ModelFailure extends Error {}

function fail(message: string): never {
  throw new ModelFailure(message);
}

function traced(who: string, what: string, status: number, detail = "") {
  run.trace.push(`${who.padEnd(5)} ${what} → ${status}${detail ? ` ${detail}` : ""}`);
  if (status >= 500) fail(`${who}: ${what} answered ${status}${detail ? ` ${detail}` : ""}`);
}

const idsShortened = (path: string) => path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => short(id));

async function rest(who: string, method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
  const res = await api.request(method, path, opts);
  traced(who, `${method} ${idsShortened(path)}`, res.status, res.status >= 400 ? JSON.stringify(res.body?.detail ?? res.body) : "");
  return res;
}

async function web(who: string, procedure: string, cookie: string, input: unknown = {}, method: "GET" | "POST" = "POST") {
  const res =
    method === "GET"
      ? await webGet(new Request(`http://localhost/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { cookie } }))
      : await webPost(
          new Request(`http://localhost/api/trpc/${procedure}`, { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify(input) }),
        );
  const text = await res.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  traced(who, `web ${procedure}`, res.status, res.status >= 400 ? JSON.stringify(body?.error?.message ?? body?.detail ?? body) : "");
  return { status: res.status, body };
}

function expectStatus(res: { status: number }, expected: number | number[], what: string) {
  const allowed = Array.isArray(expected) ? expected : [expected];
  if (!allowed.includes(res.status)) fail(`${what}: expected ${allowed.join(" or ")}, got ${res.status}`);
}

async function mcpVote(who: string, token: string, claimId: string, value: number): Promise<{ status: number; isError: boolean; text: string }> {
  const res = await handleMcp(
    new Request(`${mcp.origin}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "cast_vote", arguments: { claim_id: claimId, value } } }),
    }),
  );
  const body = (await res.json().catch(() => null)) as { result?: { isError?: boolean; content?: { text: string }[] } } | null;
  const text = body?.result?.content?.[0]?.text ?? "";
  traced(who, `mcp cast_vote ${short(claimId)}`, res.status, body?.result?.isError ? text : "");
  // A tool answers its failures inside a 200: an internal error there is the 500 of this road.
  if (/internal server error/i.test(text)) fail(`${who}: cast_vote failed inside the service: ${text}`);
  return { status: res.status, isError: Boolean(body?.result?.isError), text };
}

async function sessionCookie(agentId: string): Promise<string> {
  // What NextAuth's sign-in puts in the cookie (server/nextauth/options.ts): the agent, the sign-in
  // time and the id of the session row it starts.
  const token = await encode({
    token: { sub: agentId, authTime: Math.floor(Date.now() / 1000), sid: await startWebSession(agentId) },
    secret: process.env.NEXTAUTH_SECRET!,
  });
  return `next-auth.session-token=${token}`;
}

// ---------------------------------------------------------------------------------------------------
// Credentials against the model

/**
 * Uses the credential the way its holder would and checks the answer against the model: a live one
 * works (a refresh token is rotated, and the model keeps the new one); a dead one is refused — 401,
 * or the suspension's own answers while the account is suspended (docs/security.md#credentials-and-suspension):
 * refresh 403 `Account suspended`; the bearer credentials and the web session are refused at identity
 * resolution (401, or 403 where a surface says why).
 */
async function probe(p: Person, c: Credential): Promise<void> {
  const who = `p${p.slot}`;
  const suspended = p.state === "active" && c.account === p.accounts && p.suspended;
  const refused = suspended ? [401, 403] : [401];
  const label = `${c.kind} credential of p${p.slot}${c.live ? " (live)" : " (ended)"}`;
  switch (c.kind) {
    case "login": {
      const me = await rest(who, "GET", "/auth/me", { token: c.access });
      expectStatus(me, c.live ? 200 : refused, `${label}: its access token at GET /auth/me`);
      const renewed = await rest(who, "POST", "/auth/refresh", { body: { refresh_token: c.refresh } });
      expectStatus(renewed, c.live ? 200 : suspended ? 403 : 401, `${label}: its refresh token at POST /auth/refresh`);
      if (renewed.status === 403 && renewed.body?.detail !== "Account suspended") fail(`${label}: refresh while suspended said ${JSON.stringify(renewed.body)}`);
      if (c.live) {
        c.access = renewed.body.access_token;
        c.refresh = renewed.body.refresh_token;
      }
      return;
    }
    case "web": {
      const me = await web(who, "auth.me", c.cookie, {}, "GET");
      expectStatus(me, c.live ? 200 : refused, `${label}: auth.me with the session cookie`);
      return;
    }
    case "apiKey": {
      const me = await rest(who, "GET", "/auth/me", { token: c.key });
      expectStatus(me, c.live ? 200 : refused, `${label}: GET /auth/me with the key`);
      return;
    }
    case "mcp": {
      const listed = await mcp.listTools(c.access);
      expectStatus({ status: listed }, c.live ? 200 : refused, `${label}: tools/list at /mcp with its access token`);
      const renewed = await mcp.refresh(mcpClientId, c.refresh);
      expectStatus(renewed, c.live ? 200 : 400, `${label}: its refresh token at /oauth/token`);
      if (renewed.tokens) {
        c.access = renewed.tokens.access;
        c.refresh = renewed.tokens.refresh;
      }
      const again = await mcp.codeWithoutConsent(mcpClientId, c.jar);
      run.trace.push(`${who.padEnd(5)} the consenting browser asks again: ${again.code ? "a code, without consent" : "no code"}`);
      const expected = c.consent && c.sessionLive;
      if (Boolean(again.code) !== expected) {
        fail(`${label}: the consenting browser ${again.code ? "got" : "did not get"} a code without consent (session ${c.sessionLive ? "live" : "ended"}, grant ${c.consent ? "live" : "ended"})`);
      }
      return;
    }
  }
}

async function probeAll(p: Person): Promise<void> {
  for (const c of p.creds) await probe(p, c);
}

/** Ended credentials checked after each step, in turn: what an action ended stays ended whatever follows. */
const ENDED_PER_STEP = 2;
let sweepAt = 0;

async function sweepEnded(m: Model): Promise<void> {
  const ended = m.people.flatMap((p) => p.creds.filter((c) => !c.live).map((c) => ({ p, c })));
  for (let i = 0; i < Math.min(ENDED_PER_STEP, ended.length); i++) {
    const { p, c } = ended[(sweepAt += 1) % ended.length];
    await probe(p, c);
  }
}

// ---------------------------------------------------------------------------------------------------
// Commands

type Cmd = fc.AsyncCommand<Model, unknown, false>;

function person(m: Model, slot: number): Person {
  return m.people[slot % m.people.length];
}

let counter = 0;
const fresh = () => `${run.n}-${(counter += 1)}`;

abstract class PersonCommand implements Cmd {
  constructor(
    readonly slot: number,
    readonly pick = 0,
  ) {}
  abstract check(m: Readonly<Model>): boolean;
  abstract run(m: Model): Promise<void>;
  abstract name: string;
  toString() {
    return `${this.name}(p${this.slot}${this.pick ? `, ${this.pick}` : ""})`;
  }
}

/** Register the slot's account (anew after a deletion, with the same address) and log in. */
class Register extends PersonCommand {
  name = "Register";
  check(m: Model) {
    return person(m, this.slot).state !== "active";
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const who = `p${p.slot}`;
    const username = `m${fresh().replace(/-/g, "_")}_${p.slot}`;
    const password = `Model${p.slot}pass${counter}`;
    const reg = await rest(who, "POST", "/auth/register", { body: { email: p.email, password, username } });
    expectStatus(reg, 201, "register (the address is free: never used, or its account was deleted)");
    Object.assign(p, { state: "active", id: reg.body.id, username, password, verified: false, suspended: false, accounts: p.accounts + 1 });
    await login(p, 200);
  }
}

async function login(p: Person, expected: number) {
  const res = await rest(`p${p.slot}`, "POST", "/auth/login", { body: { email: p.email, password: p.password } });
  expectStatus(res, expected, `login of p${p.slot} (${p.state}${p.suspended ? ", suspended" : ""})`);
  if (res.status === 200) p.creds.push({ kind: "login", account: p.accounts, access: res.body.access_token, refresh: res.body.refresh_token, live: true });
}

class Login extends PersonCommand {
  name = "Login";
  check(m: Model) {
    const p = person(m, this.slot);
    return p.state !== "none" && live(p).length < MAX_LIVE;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    await login(p, p.state === "deleted" ? 401 : p.suspended ? 403 : 200);
  }
}

/** Signing in on the web: NextAuth's credentials check, then a session row and its cookie. */
class WebSignIn extends PersonCommand {
  name = "WebSignIn";
  check(m: Model) {
    const p = person(m, this.slot);
    return active(p) && !p.suspended && live(p).length < MAX_LIVE;
  }
  async run(m: Model) {
    await webSignIn(person(m, this.slot));
  }
}

async function webSignIn(p: Person): Promise<WebSession> {
  // The cookie holds its sign-in time in whole seconds (server/nextauth/options.ts), and a suspension
  // refuses sessions signed in before its exact moment: a sign-in in the very second of a suspension
  // (lifted at once) would be refused. People do not sign in that fast; the model waits that second out.
  const second = (ms: number) => Math.floor(ms / 1000);
  if (p.suspendedAt !== undefined && second(Date.now()) === second(p.suspendedAt)) await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
  const cookie = await sessionCookie(p.id);
  run.trace.push(`p${p.slot}    signs in on the web`);
  const c: WebSession = { kind: "web", account: p.accounts, cookie, live: true };
  p.creds.push(c);
  await probe(p, c);
  return c;
}

class Logout extends PersonCommand {
  name = "Logout";
  check(m: Model) {
    return ofKind(person(m, this.slot), "login").length > 0;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const c = pickOf(ofKind(p, "login"), this.pick)!;
    expectStatus(await rest(`p${p.slot}`, "POST", "/auth/logout", { body: { refresh_token: c.refresh } }), 204, "logout");
    c.live = false;
    await probeAll(p);
  }
}

/** A credential that may change the account: an access token (REST) or the web session (tRPC). */
function accountCredential(p: Person, pick: number) {
  return pickOf(ofKind(p, "login", "web"), pick);
}

async function accountCall(p: Person, c: TokenPair | WebSession, path: string, procedure: string, body: unknown) {
  const who = `p${p.slot}`;
  if (c.kind === "login") return rest(who, "POST", path, { token: c.access, body });
  return web(who, procedure, c.cookie, body);
}

class Verify extends PersonCommand {
  name = "VerifyEmail";
  check(m: Model) {
    const p = person(m, this.slot);
    return !p.verified && accountCredential(p, this.pick) !== undefined;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const c = accountCredential(p, this.pick)!;
    const since = await afterSignUpMail(smtp, p.email);
    const asked = await accountCall(p, c, "/auth/email/verify", "account.requestEmailVerification", {});
    expectStatus(asked, c.kind === "login" ? 202 : 200, "ask for a verification mail");
    const token = tokenIn(await smtp.waitForMail(p.email, { subject: /Verify your email/, since }), "/verify-email");
    expectStatus(await rest(`p${p.slot}`, "POST", "/auth/email/verify/confirm", { body: { token } }), 204, "follow the verification link");
    p.verified = true;
    const me = c.kind === "login" ? (await rest(`p${p.slot}`, "GET", "/auth/me", { token: c.access })).body : (await web(`p${p.slot}`, "auth.me", c.cookie, {}, "GET")).body?.result?.data;
    if (me?.email_verified !== true) fail("the address is not verified after its link was followed");
  }
}

class RequestReset extends PersonCommand {
  name = "RequestReset";
  check(m: Model) {
    const p = person(m, this.slot);
    return active(p) && p.links.length < 4;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const since = Date.now();
    expectStatus(await rest(`p${p.slot}`, "POST", "/auth/password-reset", { body: { email: p.email } }), 202, "ask for a reset link");
    const token = tokenIn(await smtp.waitForMail(p.email, { subject: /Reset your password/, since }), "/reset-password");
    // Only the newest link works.
    for (const l of p.links) l.live = false;
    p.links.push({ token, live: true });
  }
}

class CompleteReset extends PersonCommand {
  name = "CompleteReset";
  check(m: Model) {
    return person(m, this.slot).links.length > 0;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const link = pickOf(p.links, this.pick)!;
    const password = `Reset${p.slot}word${fresh().replace(/-/g, "")}`;
    const res = await rest(`p${p.slot}`, "POST", "/auth/password-reset/confirm", { body: { token: link.token, new_password: password } });
    if (!link.live) {
      expectStatus(res, 400, "an ended reset link (older than the newest, used, or from before a password change or a deletion)");
      return;
    }
    expectStatus(res, 204, "complete a password reset with the newest link");
    const old = p.password;
    Object.assign(p, { password, verified: true });
    for (const l of p.links) l.live = false;
    // Proving the address ends everything minted before (docs/security.md#which-action-ends-which-credential).
    endAll(p);
    await probeAll(p);
    await passwordRefused(p, old);
  }
}

/** A password that is no longer the account's (or of an account that is gone) signs nobody in. */
async function passwordRefused(p: Person, password: string) {
  const res = await rest(`p${p.slot}`, "POST", "/auth/login", { body: { email: p.email, password } });
  expectStatus(res, 401, "login with the old password");
}

class ChangePassword extends PersonCommand {
  name = "ChangePassword";
  check(m: Model) {
    return accountCredential(person(m, this.slot), this.pick) !== undefined;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const c = accountCredential(p, this.pick)!;
    const password = `Changed${p.slot}pw${fresh().replace(/-/g, "")}`;
    const res = await accountCall(p, c, "/auth/password", "account.changePassword", { current_password: p.password, new_password: password });
    expectStatus(res, c.kind === "login" ? 204 : 200, `change the password (with the ${c.kind === "login" ? "access token" : "web session"})`);
    const old = p.password;
    p.password = password;
    // The caller's own login or session stays; every other login and session ends, with the OAuth
    // server's sessions and the reset links mailed before. API keys and MCP grants stay.
    for (const other of p.creds) {
      if (other === c) continue;
      if (other.kind === "login" || other.kind === "web") other.live = false;
      if (other.kind === "mcp") other.sessionLive = false;
    }
    const pending = p.links.find((l) => l.live);
    for (const l of p.links) l.live = false;
    await probeAll(p);
    await passwordRefused(p, old);
    // The reset link mailed before the change is dead now (docs/features/accounts.md).
    if (pending) {
      const res = await rest(`p${p.slot}`, "POST", "/auth/password-reset/confirm", { body: { token: pending.token, new_password: `Late${p.slot}pw${fresh().replace(/-/g, "")}` } });
      expectStatus(res, 400, "the reset link mailed before a password change");
    }
  }
}

class SignOutEverywhere extends PersonCommand {
  constructor(
    slot: number,
    pick: number,
    readonly revokeKeys: boolean,
  ) {
    super(slot, pick);
  }
  name = "SignOutEverywhere";
  check(m: Model) {
    return accountCredential(person(m, this.slot), this.pick) !== undefined;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const c = accountCredential(p, this.pick)!;
    const body = this.revokeKeys ? { revoke_api_keys: true } : {};
    const res = await accountCall(p, c, "/auth/logout-everywhere", "account.signOutEverywhere", body);
    expectStatus(res, c.kind === "login" ? 204 : 200, "sign out everywhere");
    for (const other of p.creds) {
      if (other.kind === "apiKey" && !this.revokeKeys) continue;
      other.live = false;
      if (other.kind === "mcp") Object.assign(other, { consent: false, sessionLive: false });
    }
    await probeAll(p);
  }
  toString() {
    return `SignOutEverywhere(p${this.slot}, ${this.pick}${this.revokeKeys ? ", revoke_api_keys" : ""})`;
  }
}

class CreateApiKey extends PersonCommand {
  name = "CreateApiKey";
  check(m: Model) {
    const p = person(m, this.slot);
    return accountCredential(p, this.pick) !== undefined && live(p).length < MAX_LIVE;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const c = accountCredential(p, this.pick)!;
    const input = { name: `model ${fresh()}`, scopes: ["read", "write", "vote"] };
    const res = c.kind === "login" ? await rest(`p${p.slot}`, "POST", "/auth/api-keys", { token: c.access, body: input }) : await web(`p${p.slot}`, "apiKeys.create", c.cookie, input);
    expectStatus(res, c.kind === "login" ? 201 : 200, "create an API key");
    const created = c.kind === "login" ? res.body : res.body.result.data;
    const key: ApiKey = { kind: "apiKey", account: p.accounts, id: created.id, key: created.key, live: true };
    p.creds.push(key);
    await probe(p, key);
  }
}

class RevokeApiKey extends PersonCommand {
  name = "RevokeApiKey";
  check(m: Model) {
    const p = person(m, this.slot);
    return ofKind(p, "apiKey").length > 0 && ofKind(p, "login").length > 0;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const key = pickOf(ofKind(p, "apiKey"), this.pick)!;
    const c = ofKind(p, "login")[0];
    expectStatus(await rest(`p${p.slot}`, "DELETE", `/auth/api-keys/${key.id}`, { token: c.access }), 204, "revoke an API key");
    key.live = false;
    await probeAll(p);
  }
}

/** An MCP client asks for access; the person, signed in on the web (signing in first when not), consents. */
class AuthoriseMcp extends PersonCommand {
  name = "AuthoriseMcp";
  check(m: Model) {
    const p = person(m, this.slot);
    return (ofKind(p, "web").length > 0 || (active(p) && !p.suspended)) && live(p).length < MAX_LIVE - 1;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const session = pickOf(ofKind(p, "web"), this.pick) ?? (await webSignIn(p));
    // The consent page answers only the signed-in person (app/consent/[uid]/decision/route.ts).
    expectStatus(await web(`p${p.slot}`, "auth.me", session.cookie, {}, "GET"), 200, "the web session that consents");
    const granted = await mcp.authorise(mcpClientId, p.id);
    run.trace.push(`p${p.slot}    authorises an MCP client (consent, code, token)`);
    const c: McpClient = { kind: "mcp", account: p.accounts, jar: granted.jar, access: granted.access, refresh: granted.refresh, live: true, consent: true, sessionLive: true };
    p.creds.push(c);
    await probe(p, c);
  }
}

/**
 * The MCP client gives its access back (RFC 7009): revoking the refresh token ends the grant, revoking
 * an access token ends the grant's tokens and leaves the consent (the OAuth server's default).
 */
class RevokeMcp extends PersonCommand {
  constructor(
    slot: number,
    pick: number,
    readonly refreshToken: boolean,
  ) {
    super(slot, pick);
  }
  name = "RevokeMcp";
  check(m: Model) {
    return ofKind(person(m, this.slot), "mcp").length > 0;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const c = pickOf(ofKind(p, "mcp"), this.pick)!;
    const hint = this.refreshToken ? "refresh_token" : "access_token";
    const res = await mcp.fetchOAuth("/oauth/revoke", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: this.refreshToken ? c.refresh : c.access, token_type_hint: hint, client_id: mcpClientId }),
    });
    await res.arrayBuffer();
    expectStatus(res, 200, `the MCP client revokes its ${hint.replace("_", " ")}`);
    c.live = false;
    if (this.refreshToken) c.consent = false;
    await probeAll(p);
  }
  toString() {
    return `RevokeMcp(p${this.slot}, ${this.pick}, ${this.refreshToken ? "refresh" : "access"} token)`;
  }
}

/** Any credential the slot ever held, live or ended, used again. */
class Probe extends PersonCommand {
  name = "Probe";
  check(m: Model) {
    return person(m, this.slot).creds.length > 0;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    await probe(p, pickOf(p.creds, this.pick)!);
  }
}

// ---- content

/** A credential that writes and votes: an access token or an API key (read, write, vote). */
function writer(p: Person, pick: number) {
  return pickOf(ofKind(p, "login", "apiKey"), pick);
}
const bearer = (c: TokenPair | ApiKey) => (c.kind === "login" ? c.access : c.key);

abstract class ContentCommand extends PersonCommand {
  constructor(
    slot: number,
    pick: number,
    readonly target: number,
    readonly value = 0,
  ) {
    super(slot, pick);
  }
  canWrite(m: Model) {
    return writer(person(m, this.slot), this.pick) !== undefined;
  }
  token(m: Model) {
    return bearer(writer(person(m, this.slot), this.pick)!);
  }
  toString() {
    return `${this.name}(p${this.slot}, ${this.pick}, #${this.target}${this.value ? `, ${this.value}` : ""})`;
  }
}

class CreateClaim extends ContentCommand {
  name = "CreateClaim";
  check(m: Model) {
    return this.canWrite(m);
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const tags = [["model"], ["model", "security"], []][this.target % 3];
    const res = await rest(`p${p.slot}`, "POST", "/claims", { token: this.token(m), body: { statement: `Model claim ${fresh()} holds for step ${this.target}.`, tags } });
    expectStatus(res, 201, "create a claim");
    m.claims.push({ id: res.body.id, authorId: p.id, hidden: false, depth: 0 });
  }
}

class Vote extends ContentCommand {
  name = "Vote";
  check(m: Model) {
    const p = person(m, this.slot);
    return m.claims.length > 0 && (this.canWrite(m) || ofKind(p, "mcp").length > 0);
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const claim = pickOf(m.claims, this.target)!;
    const value = (this.value % 5) / 4;
    const own = claim.authorId === p.id;
    const viaMcp = !this.canWrite(m) || (this.value % 3 === 0 && ofKind(p, "mcp").length > 0);
    if (viaMcp) {
      const c = pickOf(ofKind(p, "mcp"), this.pick)!;
      const res = await mcpVote(`p${p.slot}`, c.access, claim.id, value);
      expectStatus(res, 200, "cast_vote at /mcp");
      if (res.isError !== (own || claim.hidden)) fail(`cast_vote on ${own ? "one's own" : claim.hidden ? "a hidden" : "another's"} claim: isError ${res.isError} (${res.text})`);
    } else {
      const res = await rest(`p${p.slot}`, "POST", `/claims/${claim.id}/vote`, { token: this.token(m), body: { value } });
      expectStatus(res, claim.hidden ? 404 : own ? 403 : 200, `vote on ${own ? "one's own" : "a"}${claim.hidden ? " hidden" : ""} claim`);
    }
  }
}

class RemoveVote extends ContentCommand {
  name = "RemoveVote";
  check(m: Model) {
    return m.claims.length > 0 && this.canWrite(m);
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const claim = pickOf(m.claims, this.target)!;
    const res = await rest(`p${p.slot}`, "DELETE", `/claims/${claim.id}/vote`, { token: this.token(m) });
    expectStatus(res, claim.hidden ? 404 : 204, "remove a vote");
  }
}

class AddArgument extends ContentCommand {
  name = "AddArgument";
  check(m: Model) {
    return m.claims.length > 0 && this.canWrite(m);
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const parentIndex = this.target % m.claims.length;
    const parent = m.claims[parentIndex];
    const stance = this.value % 2 === 0 ? "supports" : "opposes";
    const res = await rest(`p${p.slot}`, "POST", `/claims/${parent.id}/arguments`, {
      token: this.token(m),
      body: { stance, statement: `Model argument ${fresh()} bears on its parent.` },
    });
    const tooDeep = parent.depth + 1 > MAX_ARGUMENT_DEPTH;
    expectStatus(res, parent.hidden ? 404 : tooDeep ? 400 : 201, `add an argument under a${parent.hidden ? " hidden" : ""} claim at depth ${parent.depth}`);
    if (res.status !== 201) return;
    m.claims.push({ id: res.body.claim.id, authorId: p.id, hidden: false, depth: parent.depth + 1 });
    m.args.push({ id: res.body.id, parent: parentIndex, child: m.claims.length - 1 });
  }
}

class VoteRelevance extends ContentCommand {
  name = "VoteRelevance";
  check(m: Model) {
    return m.args.length > 0 && this.canWrite(m);
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const arg = pickOf(m.args, this.target)!;
    const hidden = m.claims[arg.parent].hidden || m.claims[arg.child].hidden;
    const remove = this.value % 4 === 3;
    const res = remove
      ? await rest(`p${p.slot}`, "DELETE", `/arguments/${arg.id}/relevance`, { token: this.token(m) })
      : await rest(`p${p.slot}`, "POST", `/arguments/${arg.id}/relevance`, { token: this.token(m), body: { value: (this.value % 3) / 2 } });
    expectStatus(res, hidden ? 404 : remove ? 204 : 200, `${remove ? "remove a" : "vote"} relevance on an argument${hidden ? " between hidden claims" : ""}`);
  }
}

class AddEvidence extends ContentCommand {
  name = "AddEvidence";
  check(m: Model) {
    return m.claims.length > 0 && this.canWrite(m);
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const index = this.target % m.claims.length;
    const claim = m.claims[index];
    const res = await rest(`p${p.slot}`, "POST", `/claims/${claim.id}/evidence`, {
      token: this.token(m),
      body: { position: this.value % 2 === 0 ? "supports" : "opposes", content_type: "text", content: `Model evidence ${fresh()}` },
    });
    expectStatus(res, claim.hidden ? 404 : 201, "add evidence");
    if (res.status === 201) m.evidence.push({ id: res.body.id, claim: index, authorId: p.id, hidden: false });
  }
}

class VoteEvidence extends ContentCommand {
  name = "VoteEvidence";
  check(m: Model) {
    return m.evidence.length > 0 && this.canWrite(m);
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const e = pickOf(m.evidence, this.target)!;
    const own = e.authorId === p.id;
    const remove = this.value % 4 === 3;
    const res = remove
      ? await rest(`p${p.slot}`, "DELETE", `/evidence/${e.id}/vote`, { token: this.token(m) })
      : await rest(`p${p.slot}`, "POST", `/evidence/${e.id}/vote`, { token: this.token(m), body: { direction: this.value % 2 === 0 ? "up" : "down" } });
    const visible = itemVisible(m, e);
    expectStatus(res, !visible ? 404 : remove ? 204 : own ? 403 : 200, `${remove ? "remove a vote on" : "vote on"} ${own ? "one's own" : "another's"}${visible ? "" : " hidden"} evidence`);
  }
}

class Comment extends ContentCommand {
  name = "Comment";
  check(m: Model) {
    return m.claims.length > 0 && this.canWrite(m);
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const index = this.target % m.claims.length;
    const claim = m.claims[index];
    const res = await rest(`p${p.slot}`, "POST", `/claims/${claim.id}/comments`, { token: this.token(m), body: { content: `Model comment ${fresh()}` } });
    expectStatus(res, claim.hidden ? 404 : 201, "comment");
    if (res.status === 201) m.comments.push({ id: res.body.id, claim: index, authorId: p.id, hidden: false });
  }
}

class FollowOrBookmark extends ContentCommand {
  name = "FollowOrBookmark";
  check(m: Model) {
    return m.claims.some((c) => !c.hidden) && this.canWrite(m);
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const visible = m.claims.filter((c) => !c.hidden);
    const claim = pickOf(visible, this.target)!;
    const what = ["follow", "bookmark"][this.value % 2];
    const undo = this.value % 4 >= 2;
    const res = await rest(`p${p.slot}`, undo ? "DELETE" : "POST", `/claims/${claim.id}/${what}`, { token: this.token(m) });
    expectStatus(res, undo ? 204 : 200, `${undo ? "un" : ""}${what}`);
  }
}

type ReportTarget = { type: "claim" | "evidence" | "comment" | "agent"; id: string; ownerId: string; visible: boolean };

function reportTargets(m: Model): ReportTarget[] {
  return [
    ...m.claims.map((c) => ({ type: "claim" as const, id: c.id, ownerId: c.authorId, visible: !c.hidden })),
    ...m.evidence.map((e) => ({ type: "evidence" as const, id: e.id, ownerId: e.authorId, visible: itemVisible(m, e) })),
    ...m.comments.map((c) => ({ type: "comment" as const, id: c.id, ownerId: c.authorId, visible: itemVisible(m, c) })),
    ...m.people.filter((p) => p.state === "active" && !p.suspended).map((p) => ({ type: "agent" as const, id: p.id, ownerId: p.id, visible: true })),
  ];
}

class Report extends ContentCommand {
  name = "Report";
  check(m: Model) {
    return this.canWrite(m) && reportTargets(m).length > 0;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const t = pickOf(reportTargets(m), this.target)!;
    const key = `${p.id} ${t.type} ${t.id}`;
    const res = await rest(`p${p.slot}`, "POST", "/reports", { token: this.token(m), body: { target_type: t.type, target_id: t.id, reason: "spam" } });
    const expected = !t.visible ? 404 : t.ownerId === p.id ? 400 : m.reports.has(key) ? 409 : 201;
    expectStatus(res, expected, `report ${t.type === "agent" ? "a person" : `a${t.visible ? "" : " hidden"} ${t.type}`}${t.ownerId === p.id ? " of one's own" : ""}`);
    if (res.status === 201) m.reports.add(key);
  }
}

// ---- staff

class Suspend extends PersonCommand {
  name = "Suspend";
  check(m: Model) {
    return active(person(m, this.slot));
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const res = await rest("admin", "POST", `/moderation/agents/${p.id}/suspend`, { token: admin.token, body: { reason: "model test" } });
    expectStatus(res, 204, "suspend");
    p.suspended = true;
    p.suspendedAt = Date.now();
    endAll(p);
    await probeAll(p);
    await login(p, 403);
  }
}

class Unsuspend extends PersonCommand {
  name = "Unsuspend";
  check(m: Model) {
    const p = person(m, this.slot);
    return active(p) && p.suspended;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    expectStatus(await rest("admin", "POST", `/moderation/agents/${p.id}/unsuspend`, { token: admin.token, body: {} }), 204, "unsuspend");
    p.suspended = false;
    // What a suspension ended stays ended.
    await probeAll(p);
  }
}

type Hideable = { type: "claim" | "evidence" | "comment"; item: { id: string; hidden: boolean } };

function hideables(m: Model): Hideable[] {
  return [
    ...m.claims.map((item) => ({ type: "claim" as const, item })),
    ...m.evidence.map((item) => ({ type: "evidence" as const, item })),
    ...m.comments.map((item) => ({ type: "comment" as const, item })),
  ];
}

class HideOrRestore implements Cmd {
  constructor(
    readonly target: number,
    readonly restore: boolean,
    readonly byModerator: boolean,
  ) {}
  check(m: Model) {
    return hideables(m).length > 0;
  }
  async run(m: Model) {
    const t = pickOf(hideables(m), this.target)!;
    const staff = this.byModerator ? moderator : admin;
    const action = this.restore ? "restore" : "hide";
    const res = await rest(this.byModerator ? "mod" : "admin", "POST", `/moderation/${t.type}/${t.item.id}/${action}`, { token: staff.token, body: { reason: "model test" } });
    expectStatus(res, 204, `${action} a ${t.type}`);
    t.item.hidden = !this.restore;
    // Hiding closes the open reports on it (as actioned).
    if (!this.restore) for (const r of [...m.reports]) if (r.endsWith(` ${t.type} ${t.item.id}`)) m.reports.delete(r);
  }
  toString() {
    return `${this.restore ? "Restore" : "Hide"}(#${this.target}${this.byModerator ? ", by the moderator" : ""})`;
  }
}

class DeleteAccount extends PersonCommand {
  name = "DeleteAccount";
  check(m: Model) {
    return accountCredential(person(m, this.slot), this.pick) !== undefined;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const c = accountCredential(p, this.pick)!;
    const res = c.kind === "login" ? await rest(`p${p.slot}`, "POST", "/auth/me/delete", { token: c.access, body: { password: p.password } }) : await web(`p${p.slot}`, "account.delete", c.cookie, { password: p.password });
    expectStatus(res, c.kind === "login" ? 204 : 200, "delete the account");
    const id = p.id;
    p.state = "deleted";
    endAll(p);
    for (const l of p.links) l.live = false;
    for (const r of [...m.reports]) if (r.startsWith(`${id} `) || r.endsWith(` agent ${id}`)) m.reports.delete(r);
    // What it wrote stays, under the tombstone account.
    for (const list of [m.claims, m.evidence, m.comments]) for (const x of list) if (x.authorId === id) x.authorId = TOMBSTONE;
    await probeAll(p);
    await passwordRefused(p, p.password);
    const profile = await rest(`p${p.slot}`, "GET", `/profiles/${id}`);
    expectStatus(profile, 404, "the deleted account's profile");
  }
}

// ---- standing (docs/features/consensus.md#standing)

/** The account says it is automated, or a person's: its votes are re-sorted at once (every claim's counts). */
class SetAutomated extends PersonCommand {
  name = "SetAutomated";
  check(m: Model) {
    return ofKind(person(m, this.slot), "login").length > 0;
  }
  async run(m: Model) {
    const p = person(m, this.slot);
    const c = pickOf(ofKind(p, "login"), this.pick)!;
    const res = await rest(`p${p.slot}`, "PATCH", "/auth/me", { token: c.access, body: { automated: this.pick % 2 === 0 } });
    expectStatus(res, 200, "PATCH /auth/me automated");
  }
}

/**
 * A round of the standing job: the accounts marked since (by suspensions, verifications, flags, votes)
 * are restated and their votes re-sorted. Between rounds the marks stand, and the invariants hold too.
 */
class StandingJob implements Cmd {
  check() {
    return true;
  }
  async run() {
    await drainStanding({ limit: 50 });
  }
  toString() {
    return "StandingJob";
  }
}

// ---------------------------------------------------------------------------------------------------
// The arbitraries

const slot = fc.nat({ max: PEOPLE - 1 });
const pick = fc.nat({ max: 11 });
const target = fc.nat({ max: 1000 });
const small = fc.nat({ max: 11 });

const weighted: [number, fc.Arbitrary<Cmd>][] = [
  [2, slot.map((s) => new Register(s))],
  [5, fc.tuple(slot, pick).map(([s, k]) => new Login(s, k))],
  [5, fc.tuple(slot, pick).map(([s, k]) => new WebSignIn(s, k))],
  [1, fc.tuple(slot, pick).map(([s, k]) => new Logout(s, k))],
  [1, fc.tuple(slot, pick).map(([s, k]) => new Verify(s, k))],
  [4, fc.tuple(slot, pick).map(([s, k]) => new RequestReset(s, k))],
  [5, fc.tuple(slot, pick).map(([s, k]) => new CompleteReset(s, k))],
  [3, fc.tuple(slot, pick).map(([s, k]) => new ChangePassword(s, k))],
  [3, fc.tuple(slot, pick, fc.boolean()).map(([s, k, revoke]) => new SignOutEverywhere(s, k, revoke))],
  [4, fc.tuple(slot, pick).map(([s, k]) => new CreateApiKey(s, k))],
  [1, fc.tuple(slot, pick).map(([s, k]) => new RevokeApiKey(s, k))],
  [5, fc.tuple(slot, pick).map(([s, k]) => new AuthoriseMcp(s, k))],
  [1, fc.tuple(slot, pick, fc.boolean()).map(([s, k, refresh]) => new RevokeMcp(s, k, refresh))],
  [2, fc.tuple(slot, pick).map(([s, k]) => new Probe(s, k))],
  [5, fc.tuple(slot, pick, target).map(([s, k, t]) => new CreateClaim(s, k, t))],
  [4, fc.tuple(slot, pick, target, small).map(([s, k, t, v]) => new Vote(s, k, t, v))],
  [1, fc.tuple(slot, pick, target).map(([s, k, t]) => new RemoveVote(s, k, t))],
  [5, fc.tuple(slot, pick, target, small).map(([s, k, t, v]) => new AddArgument(s, k, t, v))],
  [3, fc.tuple(slot, pick, target, small).map(([s, k, t, v]) => new VoteRelevance(s, k, t, v))],
  [3, fc.tuple(slot, pick, target, small).map(([s, k, t, v]) => new AddEvidence(s, k, t, v))],
  [3, fc.tuple(slot, pick, target, small).map(([s, k, t, v]) => new VoteEvidence(s, k, t, v))],
  [3, fc.tuple(slot, pick, target).map(([s, k, t]) => new Comment(s, k, t))],
  [2, fc.tuple(slot, pick, target, small).map(([s, k, t, v]) => new FollowOrBookmark(s, k, t, v))],
  [2, fc.tuple(slot, pick, target).map(([s, k, t]) => new Report(s, k, t))],
  [2, slot.map((s) => new Suspend(s))],
  [3, slot.map((s) => new Unsuspend(s))],
  [3, fc.tuple(target, fc.boolean(), fc.boolean()).map(([t, restore, mod]) => new HideOrRestore(t, restore, mod))],
  [3, fc.tuple(slot, pick).map(([s, k]) => new DeleteAccount(s, k))],
  [2, fc.tuple(slot, pick).map(([s, k]) => new SetAutomated(s, k))],
  [3, fc.constant(new StandingJob())],
];
const anyCommand = fc.oneof(...weighted.map(([weight, arbitrary]) => ({ weight, arbitrary })));

// ---------------------------------------------------------------------------------------------------

beforeAll(async () => {
  smtp = await startSmtpSink();
  // Read once, on the first use of the configuration (startApi).
  process.env.SMTP_URL = smtp.url;
  api = await startApi();
  // The answers of the OAuth server (registration, authorization, token) and of /mcp, traced as "mcp".
  mcp = await startMcpWorld((what, status) => traced("mcp", what, status));
  [admin, moderator] = [await createAgent(api), await createAgent(api)];
  if ((await grantAdmin(admin.username))?.role !== "admin") throw new Error("no admin");
  const promoted = await api.request("PUT", `/admin/agents/${moderator.id}/role`, { token: admin.token, body: { role: "moderator" } });
  if (promoted.status !== 200) throw new Error(`no moderator: ${promoted.status} ${promoted.text}`);
  mcpClientId = await mcp.registerClient("Model test client");
});
afterAll(async () => {
  await mcp?.close();
  await api?.close();
  await smtp?.close();
});

describe("the model: people, staff and every credential", () => {
  it(`${RUNS} runs of up to ${MAX_COMMANDS} steps (seed ${SEED}): no 5xx, invariants exact, no credential outlives what ended it`, async () => {
    let firstFailure: number | null = null;
    const property = fc.asyncProperty(fc.commands([anyCommand], { maxCommands: MAX_COMMANDS, size: "max" }), async (commands) => {
      // Shrinking replays sequences; past the budget, the smallest failure so far is the one reported.
      if (firstFailure !== null && Date.now() - firstFailure > SHRINK_SECONDS * 1000) return;
      runs += 1;
      run = { n: runs, trace: [] };
      sweepAt = 0;
      const model: Model = {
        people: Array.from({ length: PEOPLE }, (_, i) => ({
          slot: i,
          state: "none" as const,
          id: "",
          username: "",
          email: `model-${process.pid}-${runs}-${i}@example.test`,
          password: "",
          verified: false,
          suspended: false,
          creds: [],
          links: [],
          accounts: 0,
        })),
        claims: [],
        args: [],
        evidence: [],
        comments: [],
        reports: new Set(),
      };
      const checked = [...commands].map((cmd) => new AfterEveryStep(cmd));
      try {
        // Every run starts with each person registered and logged in (the same command, not shrunk away).
        for (const p of model.people) await new AfterEveryStep(new Register(p.slot)).run(model, {});
        await fc.asyncModelRun(() => ({ model, real: {} }), checked);
      } catch (err) {
        firstFailure ??= Date.now();
        const message = err instanceof Error ? err.message : String(err);
        throw new Error(`${message}\n\nThe run, step by step:\n${run.trace.join("\n")}`, { cause: err });
      }
    });
    const started = Date.now();
    try {
      await fc.assert(property, { seed: SEED, numRuns: RUNS, verbose: 1 });
    } finally {
      const total = [...stepsTaken.values()].reduce((sum, t) => sum + t.n, 0);
      const each = [...stepsTaken]
        .sort((a, b) => b[1].n - a[1].n)
        .map(([k, t]) => `${k} ${t.n} × ${Math.round(t.ms / t.n)} ms`)
        .join(", ");
      console.log(`model: seed ${SEED}, ${runs} runs, ${total} steps in ${((Date.now() - started) / 1000).toFixed(1)} s (${each})`);
    }
  }, 900_000);
});

/** The command, then what must hold after every step. */
class AfterEveryStep implements Cmd {
  constructor(readonly inner: Cmd) {}
  check(m: Readonly<Model>) {
    return this.inner.check(m);
  }
  async run(m: Model, r: unknown) {
    run.trace.push(`— ${this.inner.toString()}`);
    const started = Date.now();
    await this.inner.run(m, r);
    await sweepEnded(m);
    const broken = await checkInvariants();
    if (broken.length > 0) fail(`invariants after ${this.inner.toString()}:\n${broken.join("\n")}`);
    const name = this.inner.toString().replace(/\(.*$/, "");
    const taken = stepsTaken.get(name) ?? { n: 0, ms: 0 };
    stepsTaken.set(name, { n: taken.n + 1, ms: taken.ms + Date.now() - started });
  }
  toString() {
    return this.inner.toString();
  }
}
