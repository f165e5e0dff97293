// The OAuth authorization server (/oauth/*, docs/features/mcp.md#oauth) fuzzed over raw HTTP against the
// production build: registration documents, token, revocation, introspection and authorization requests
// with random parameters (NUL and other control characters, unpaired surrogates, wrong types, huge and
// empty values), a real registered client's id mixed in so that the requests get past the first checks.
// Whatever arrives, the answer is never a 5xx (docs/security.md).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";

let server: BuiltServer;
let clientId = "";
const CALLBACK = "http://127.0.0.1:8765/callback";

beforeAll(async () => {
  server = await startBuiltServer({ TRUST_PROXY: "1", RATE_LIMIT_SCALE: "100000" });
  const res = await fetch(`${server.base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Fuzzed agent", redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" }),
  });
  clientId = ((await res.json()) as { client_id: string }).client_id;
}, 180_000);

afterAll(() => server?.stop());

const nasty = fc.constantFrom("\u0000", "a\u0000b", "\u0001", "\u202e", "\ud800", "%00", "", " ", "x".repeat(5000), "../../etc", "null", "[]", "{}");
const text = fc.oneof(fc.string({ maxLength: 40 }), nasty);
const id = fc.oneof(text, fc.constant("__client__"), fc.constant("__client__\u0000"));
const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 2 }));

/** A form body: random keys among the protocol's, random string values (a form has no other type). */
const form = fc.dictionary(
  fc.constantFrom("grant_type", "code", "redirect_uri", "client_id", "code_verifier", "refresh_token", "token", "token_type_hint", "resource", "scope", "x"),
  id,
  { maxKeys: 6 },
);
const registration = fc.oneof(
  fc.dictionary(
    fc.constantFrom("client_name", "redirect_uris", "token_endpoint_auth_method", "grant_types", "response_types", "scope", "client_uri", "logo_uri", "contacts", "software_id", "x"),
    value,
    { maxKeys: 6 },
  ),
  fc.record({ client_name: text, redirect_uris: fc.array(fc.oneof(text, fc.constant(CALLBACK)), { maxLength: 3 }), token_endpoint_auth_method: fc.constant("none") }),
  value,
);
const authorize = fc.dictionary(
  fc.constantFrom("client_id", "redirect_uri", "response_type", "scope", "state", "code_challenge", "code_challenge_method", "resource", "prompt", "x"),
  id,
  { maxKeys: 7 },
);

const withClient = (s: string) => s.replaceAll("__client__", clientId);

const request = fc.oneof(
  registration.map((body) => ({ path: "/oauth/register", init: { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) } })),
  fc.tuple(fc.constantFrom("/oauth/token", "/oauth/revoke", "/oauth/introspect"), form).map(([path, body]) => ({
    path,
    init: {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, withClient(v)])).toString(),
    },
  })),
  authorize.map((query) => ({
    path: `/oauth/authorize?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, withClient(v)])).toString()}`,
    init: { method: "GET", redirect: "manual" as const },
  })),
  fc.tuple(fc.constantFrom("/oauth/token", "/oauth/register", "/oauth/revoke"), fc.string({ maxLength: 200 })).map(([path, raw]) => ({
    path,
    init: { method: "POST", headers: { "content-type": "application/json" }, body: raw },
  })),
);

describe("the OAuth endpoints under fuzzing", () => {
  it("answer every request with a 2xx, 3xx or 4xx, never a 5xx", async () => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(request, async ({ path, init }) => {
        const res = await fetch(`${server.base}${path}`, init as RequestInit);
        await res.arrayBuffer();
        if (res.status >= 500) failures.push(`${res.status} ${init.method} ${path.slice(0, 200)} ${String((init as { body?: string }).body ?? "").slice(0, 200)}`);
      }),
      { numRuns: 300, seed: Number(process.env.FUZZ_SEED ?? 35) },
    );
    expect(failures).toEqual([]);
    const health = await fetch(`${server.base}/api/v1/health`);
    expect(health.status).toBe(200);
  }, 180_000);
});
