// The guards in front of the MCP SDK at /mcp (docs/features/mcp.md), exercised in process through the
// route's handler with real HTTP-shaped requests and a real database: the transport specification's
// Origin rule (a foreign Origin → 403, DNS rebinding included), the anonymous per-address budget that
// requests without a working credential are charged to (429 once spent; a working credential from the
// same address still passes), JSON-RPC's invalid params (-32602) for a request whose params do not fit its method,
// and a refused tool call's isError result with the contract's {code, detail}.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { handleMcp } from "../../server/mcp/handler.ts";
import { CLIENT_IP_HEADER, sealedClientIp } from "../../server/http/client-ip.ts";
import { dbReady } from "../../server/db/client.ts";
import { inOneBucket } from "../helpers/time.ts";
import { quickAgent, type Voter } from "./claims-fixtures.ts";

// Before anything reads the configuration: anonymous callers get 6 requests (60 × 0.1) per address
// per minute; a new agent 12 (each test has its own). NEXTAUTH_URL is the test setup's http://localhost:3000.
process.env.RATE_LIMIT_SCALE = "0.1";
const PUBLIC_ORIGIN = "http://localhost:3000";
const ANONYMOUS_LIMIT = 6;

let me: Voter;
beforeAll(async () => {
  await dbReady();
});
beforeEach(async () => {
  me = await quickAgent();
});

let ipCounter = 0;
const freshIp = () => `10.${process.pid % 250}.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

interface Call {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  ip?: string;
  url?: string;
  method?: string;
}

async function mcp({ body, token, headers = {}, ip = freshIp(), url = `${PUBLIC_ORIGIN}/mcp`, method = "POST" }: Call) {
  const res = await handleMcp(
    new Request(url, {
      method,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        [CLIENT_IP_HEADER]: sealedClientIp(ip),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
    }),
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const toolCall = (name: string, args: unknown, id = 1) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const listTools = { jsonrpc: "2.0", id: 1, method: "tools/list" };

describe("Origin (the transport specification: servers must validate it, against DNS rebinding)", () => {
  it("a foreign Origin is refused with 403 before anything is done; no Origin, or this app's, passes", async () => {
    const refused = await mcp({ token: me.token, body: listTools, headers: { origin: "https://evil.example" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "forbidden", detail: "Cross-site request refused" });
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    // The preflight of a page elsewhere too.
    expect((await mcp({ method: "OPTIONS", headers: { origin: "https://evil.example" } })).status).toBe(403);
    expect((await mcp({ method: "OPTIONS" })).status).toBe(204);

    const agent = await mcp({ token: me.token, body: listTools });
    expect(agent.status).toBe(200);
    expect(agent.body.result.tools.length).toBeGreaterThan(0);
    const sameOrigin = await mcp({ token: me.token, body: listTools, headers: { origin: PUBLIC_ORIGIN } });
    expect(sameOrigin.status).toBe(200);
  });

  it("a DNS-rebinding page (its own host in Host and Origin) is refused: only the configured public origin counts", async () => {
    const rebound = await mcp({ token: me.token, body: listTools, url: "http://attacker.example:3000/mcp", headers: { host: "attacker.example:3000", origin: "http://attacker.example:3000", "sec-fetch-site": "same-origin" } });
    expect(rebound.status).toBe(403);
    const crossSite = await mcp({ token: me.token, body: listTools, headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
  });

  it("a refused tool call from another origin changes nothing", async () => {
    const author = await quickAgent();
    const created = await mcp({ token: author.token, body: toolCall("create_claim", { statement: "Origin checks happen before any tool runs at all" }) });
    expect(created.status).toBe(200);
    const claimId = created.body.result.structuredContent.id as string;
    const refused = await mcp({ token: me.token, body: toolCall("cast_vote", { claim_id: claimId, value: 0.8 }), headers: { origin: "https://evil.example" } });
    expect(refused.status).toBe(403);
    const read = await mcp({ token: me.token, body: toolCall("get_claim", { claim_id: claimId }) });
    expect(read.body.result.structuredContent.vote_count).toBe(0);
  });
});

describe("requests without a working credential are rate limited", () => {
  it(`charges missing and bad credentials to the address's anonymous budget (${ANONYMOUS_LIMIT}), then answers 429 with Retry-After`, async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      const remaining: number[] = [];
      for (let i = 0; i < ANONYMOUS_LIMIT; i++) {
        // No credential, a made-up API key (a database look-up) and a made-up token, in turn.
        const token = [undefined, "clm_madeupmadeupmadeupmadeupmadeup", "not.a.token"][i % 3];
        const res = await mcp({ ip, token, body: listTools });
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toContain("resource_metadata=");
        remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
      }
      expect(remaining[remaining.length - 1]).toBeLessThan(remaining[0]);
      const refused = await mcp({ ip, token: "clm_madeupmadeupmadeupmadeupmadeup", body: listTools });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ code: "rate_limited", detail: "Rate limit exceeded" });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expect((await mcp({ ip, body: listTools })).status).toBe(429);
      // A working credential from that address is not held up by it (hosted clients share addresses).
      expect((await mcp({ ip, token: me.token, body: listTools })).status).toBe(200);
      // Another address is not affected, and neither is a working credential from one.
      expect((await mcp({ body: listTools })).status).toBe(401);
      expect((await mcp({ token: me.token, body: listTools })).status).toBe(200);
    });
  });
});

describe("params that do not fit the method: JSON-RPC -32602 (invalid params), not -32603", () => {
  const errorOf = async (body: unknown) => {
    const res = await mcp({ token: me.token, body });
    expect(res.status).toBe(200);
    return res.body.error as { code: number; message: string } | undefined;
  };

  it("tool arguments that are not an object", async () => {
    for (const args of ["x", 5, [1, 2], null, true]) {
      const error = await errorOf(toolCall("trending_claims", args));
      expect(error?.code, JSON.stringify(args)).toBe(-32602);
      expect(error?.message).toContain("arguments");
    }
    // Absent arguments are an empty object, and an object still works.
    expect((await mcp({ token: me.token, body: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "trending_claims" } } })).body.result.isError).toBeFalsy();
    expect((await mcp({ token: me.token, body: toolCall("trending_claims", {}) })).body.result.isError).toBeFalsy();
  });

  it("other methods' params, the SDK's own initialize included", async () => {
    expect((await errorOf(toolCall(5 as unknown as string, {})))?.code).toBe(-32602);
    expect((await errorOf({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: 5 } }))?.code).toBe(-32602);
    expect((await errorOf({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 5, capabilities: {}, clientInfo: { name: "x", version: "1" } } }))?.code).toBe(-32602);
    const initialized = await mcp({ token: me.token, body: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } } });
    expect(initialized.body.result.serverInfo.name).toBe("claims-service");
    // An unknown method stays "method not found".
    expect((await errorOf({ jsonrpc: "2.0", id: 1, method: "resources/list" }))?.code).toBe(-32601);
  });
});

describe("a refused tool call is an isError result carrying the contract's {code, detail}", () => {
  it("its text is the detail, its structured content the body /api/v1 answers with", async () => {
    const invalid = await mcp({ token: me.token, body: toolCall("cast_vote", { claim_id: "00000000-0000-4000-8000-000000000000", value: 7 }) });
    expect(invalid.body.result.isError).toBe(true);
    expect(invalid.body.result.structuredContent).toMatchObject({ code: "validation_failed", errors: [{ field: "value" }] });
    expect(invalid.body.result.content[0].text).toBe(invalid.body.result.structuredContent.detail);
    const missing = await mcp({ token: me.token, body: toolCall("get_claim", { claim_id: "00000000-0000-4000-8000-000000000000" }) });
    expect(missing.body.result).toMatchObject({ isError: true, structuredContent: { code: "not_found", detail: "Claim not found" } });
  });

  it("the official SDK client reads it (it checks structured content against the tool's declared output, refusals included)", async () => {
    const client = new Client({ name: "guards-client", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${PUBLIC_ORIGIN}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${me.token}`, [CLIENT_IP_HEADER]: sealedClientIp(freshIp()) } },
      fetch: (url, init) => handleMcp(new Request(url, init)),
    });
    await client.connect(transport);
    try {
      await client.listTools(); // the client keeps each tool's output schema to check results against
      const missing = (await client.callTool({ name: "get_claim", arguments: { claim_id: "00000000-0000-4000-8000-000000000000" } })) as CallToolResult;
      expect(missing).toMatchObject({ isError: true, structuredContent: { code: "not_found", detail: "Claim not found" } });
    } finally {
      await client.close();
    }
  });
});
