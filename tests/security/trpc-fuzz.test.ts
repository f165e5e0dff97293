// The web UI's tRPC endpoint under fuzz and attack (the /api/v1 fuzzer: fuzz.test.ts): every procedure
// of the router, single and batched (oversized batches, valid and invalid calls mixed, unknown
// procedures), hostile inputs (wrong types, NUL, deep nesting, bodies over 256 KiB, malformed JSON),
// with and without a session. Never a 5xx; a batch over 10 calls is a 400 with {detail}; a body over the
// limit is a 413. The page routes get the same over HTTP in tests/security/entrypoints.test.ts.
import fc from "fast-check";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, POST } from "../../app/api/trpc/[trpc]/route.ts";
import { appRouter } from "../../server/api/root.ts";
import { createAgent, startApi, type TestApi } from "../helpers/api.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const SCALE = Math.max(0.1, Number(process.env.FUZZ_RUNS ?? 1));
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

let api: TestApi;
let cookie: string;
beforeAll(async () => {
  api = await startApi();
  const agent = await createAgent(api);
  const token = await encode({ token: { sub: agent.id, authTime: Math.floor(Date.now() / 1000) }, secret: process.env.NEXTAUTH_SECRET! });
  cookie = `next-auth.session-token=${token}`;
});
afterAll(() => api.close());

const procedures = Object.keys((appRouter as unknown as { _def: { procedures: Record<string, unknown> } })._def.procedures);
const procedureArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...procedures) },
  { weight: 1, arbitrary: fc.constantFrom("nope", "claims.nope", "__proto__", "constructor", "claims..list", "a".repeat(300)) },
);
const deep = (n: number): unknown => (n === 0 ? "x" : { a: deep(n - 1) });
const inputArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  fc.constant({}),
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.constantFrom("claim_id", "q", "limit", "statement", "value", "email", "password", "refresh_token", "code", "tag", "offset"), fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.constant("\u0000"), fc.constant("\ud800"))),
  fc.constant({ claim_id: "not-a-uuid" }),
  fc.constant({ statement: "x".repeat(20_000) }),
  fc.constant(deep(200)),
);

async function send(method: "GET" | "POST", paths: string[], inputs: unknown[], batch: boolean, withSession: boolean, rawBody?: string) {
  const headers: Record<string, string> = withSession ? { cookie } : {};
  const input = batch ? Object.fromEntries(inputs.map((v, i) => [i, v])) : inputs[0];
  const url = `http://localhost/api/trpc/${paths.map(encodeURIComponent).join(",")}${batch ? "?batch=1" : ""}`;
  if (method === "GET") {
    const q = input === undefined ? "" : `${batch ? "&" : "?"}input=${encodeURIComponent(JSON.stringify(input))}`;
    return GET(new Request(url + q, { headers }));
  }
  return POST(new Request(url, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: rawBody ?? JSON.stringify(input ?? null) }));
}

describe("web tRPC endpoint fuzz", () => {
  it("single and batched calls of every procedure with hostile inputs: never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET" as const, "POST" as const),
        fc.array(fc.tuple(procedureArb, inputArb), { minLength: 1, maxLength: 14 }),
        fc.boolean(),
        fc.boolean(),
        async (method, calls, batch, withSession) => {
          const used = batch ? calls : calls.slice(0, 1);
          const res = await send(method, used.map((c) => c[0]), used.map((c) => c[1]), batch, withSession);
          const text = await res.text();
          expect(res.status, `${method} ${used.map((c) => c[0]).join(",")}: ${text.slice(0, 300)}`).toBeLessThan(500);
          if (batch && used.length > 10) {
            expect(res.status).toBe(400);
            const detail = `batch: at most 10 calls per request (got ${used.length})`;
            expect(JSON.parse(text)).toEqual({ code: "validation_failed", detail, errors: [{ field: "batch", message: detail, rule: "too_many", max: 10 }] });
          }
          // An error tells what was wrong with the request, never the database's or the stack's story.
          if (res.status >= 400) expect(text).not.toMatch(/prisma|postgres|at \w+ \(|node_modules/i);
        },
      ),
      { seed: SEED, numRuns: runs(300) },
    );
  }, 300_000);

  it.each([
    ["malformed JSON", "{"],
    ["not an object", "[1,2,3]"],
    ["a string", '"hello"'],
    ["over 256 KiB", JSON.stringify({ statement: "x".repeat(300 * 1024) })],
    ["nested 10 000 deep", "[".repeat(10_000) + "]".repeat(10_000)],
  ])("a POST body that is %s: a 4xx, never a 5xx", async (_name, body) => {
    for (const batch of [false, true]) {
      const res = await send("POST", ["claims.create"], [undefined], batch, true, body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      if (body.length > 256 * 1024) expect(res.status).toBe(413);
    }
  });

  it("every path-like input of every procedure (ids, usernames, tags) with NUL or an unpaired surrogate: a 400, never a 5xx", async () => {
    type Def = { _def: { type: "query" | "mutation" | "subscription"; meta?: { openapi?: { path?: string } } } };
    const defs = (appRouter as unknown as { _def: { procedures: Record<string, Def> } })._def.procedures;
    let checked = 0;
    for (const [name, def] of Object.entries(defs)) {
      const params = [...(def._def.meta?.openapi?.path ?? "").matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      if (def._def.type === "subscription") continue;
      for (const param of params) {
        for (const value of ["\u0000", "a\u0000b", "00000000-0000-4000-8000-00000000000\u0000", "\uD800"]) {
          const input = { ...Object.fromEntries(params.map((p) => [p, "x"])), [param]: value };
          for (const withSession of [false, true]) {
            const res = await send(def._def.type === "query" ? "GET" : "POST", [name], [input], false, withSession);
            const text = await res.text();
            expect(res.status, `${name} ${param}=${JSON.stringify(value)}: ${text.slice(0, 200)}`).toBeLessThan(500);
            // A signed-out call of a signed-in procedure may be refused first (401); otherwise the field is named.
            if (res.status !== 401 && res.status !== 403) {
              expect(res.status, `${name} ${param}`).toBe(400);
              expect(JSON.parse(text).error.detail).toMatch(new RegExp(`^${param}: must not contain NUL`));
            }
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  }, 300_000);

  it("an oversized batch of a cheap query is refused before any of it runs", async () => {
    const res = await send("GET", Array(200).fill("claims.list"), Array(200).fill({}), true, false);
    expect(res.status).toBe(400);
  });
});
