// POST /mcp fuzzed over raw HTTP against the production build: random JSON-RPC messages, random tool
// names and arguments (NUL, unpaired surrogates, wrong types, path-like ids), from IPv4 and IPv6 clients,
// with and without a credential. Whatever arrives, the answer is never a 5xx (docs/security.md).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";

let server: BuiltServer;
let apiKey = "";

const TOOLS = ["search_claims", "get_claim", "list_evidence", "create_claim", "cast_vote", "remove_vote", "add_evidence", "vote_evidence", "add_comment", "follow_claim", "get_profile", "get_track_record", "related_claims", "similar_claims", "add_argument", "list_arguments", "vote_relevance", "no_such_tool"];
const CLIENTS = ["10.9.0.1", "2001:db8:1:2::7", "2001:db8:1:2::8", "::ffff:10.9.0.2"];

async function rest(path: string, body: unknown, token?: string) {
  const res = await fetch(`${server.base}/api/v1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, string>;
}

beforeAll(async () => {
  server = await startBuiltServer({ TRUST_PROXY: "1", RATE_LIMIT_SCALE: "100000" });
  const email = `mcpfuzz_${process.pid % 10000}@example.test`;
  await rest("/auth/register", { email, password: "Password123", username: `mcpfuzz_${process.pid % 10000}` });
  const login = await rest("/auth/login", { email, password: "Password123" });
  apiKey = (await rest("/auth/api-keys", { name: "fuzz", scopes: ["read", "vote", "write"] }, login.access_token)).key;
});

afterAll(() => server?.stop());

const text = fc.oneof(fc.string(), fc.constantFrom("\u0000", "a\u0000b", "\ud800", "00000000-0000-4000-8000-000000000000", "../../etc", "%00", ""));
const value = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 3 }));
const args = fc.dictionary(fc.constantFrom("claim_id", "evidence_id", "agent_id", "q", "statement", "value", "direction", "content", "stance", "tags", "limit", "x"), value);
const message = fc.oneof(
  fc.record({ jsonrpc: fc.constant("2.0"), id: fc.integer(), method: fc.constant("tools/call"), params: fc.record({ name: fc.constantFrom(...TOOLS), arguments: fc.oneof(args, value) }) }),
  fc.record({ jsonrpc: fc.constantFrom("2.0", "1.0"), id: fc.oneof(fc.integer(), text), method: fc.oneof(fc.constantFrom("tools/list", "initialize", "ping", "resources/list"), text) }),
  value,
);

describe("POST /mcp under fuzzing", () => {
  it("answers every message with a 2xx or 4xx, never a 5xx, whoever sends it", async () => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(message, fc.constantFrom(...CLIENTS), fc.boolean(), async (body, client, signed) => {
        const res = await fetch(`${server.base}/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "x-forwarded-for": client,
            ...(signed ? { authorization: `Bearer ${apiKey}` } : {}),
          },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        if (res.status >= 500) failures.push(`${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      }),
      { numRuns: 150 },
    );
    expect(failures).toEqual([]);
    // 150 runs over HTTP: a minute and more when the machine is busy with the rest of the suite.
  }, 120_000);
});
