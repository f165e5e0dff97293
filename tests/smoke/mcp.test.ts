// The MCP endpoint of the production build, driven by the official SDK client (Client +
// StreamableHTTPClientTransport) the way an agent connects: with an API key or an access token, over
// POST /mcp, without sessions. What the agent does must be visible over REST, and what the service
// refuses must come back as an isError result with the REST detail, changing nothing.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";

let server: BuiltServer;

interface Account {
  id: string;
  token: string;
}

async function rest(path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const res = await fetch(`${server.base}/api/v1${path}`, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: { ...(init.body ? { "content-type": "application/json" } : {}), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function account(name: string): Promise<Account> {
  const username = `${name}_${process.pid % 10000}`;
  const email = `${username}@example.test`;
  const reg = await rest("/auth/register", { body: { email, password: "Password123", username } });
  expect(reg.status).toBe(201);
  const login = await rest("/auth/login", { body: { email, password: "Password123" } });
  return { id: reg.body.id, token: login.body.access_token };
}

async function apiKey(owner: Account, scopes: string[]): Promise<string> {
  const res = await rest("/auth/api-keys", { token: owner.token, body: { name: `mcp ${scopes.join(" ")}`, scopes } });
  expect(res.status).toBe(201);
  return res.body.key;
}

async function connect(bearer: string): Promise<Client> {
  const client = new Client({ name: "claims-test-agent", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${bearer}` } },
  });
  await client.connect(transport);
  return client;
}

const text = (r: CallToolResult) => (r.content[0] as { type: "text"; text: string }).text;

let alice: Account;
let bob: Account;
let bobsClaim: string;
const clients: Client[] = [];

beforeAll(async () => {
  // NEXTAUTH_URL is the server's own address: the absolute URLs it hands out name it.
  server = await startBuiltServer((base) => ({ LOG_LEVEL: "error", NEXTAUTH_URL: base }));
  alice = await account("mcp_alice");
  bob = await account("mcp_bob");
  const claim = await rest("/claims", { token: bob.token, body: { statement: "Octopuses have three hearts and blue blood", tags: ["biology"] } });
  expect(claim.status).toBe(201);
  bobsClaim = claim.body.id;
}, 240_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  server?.stop();
});

describe("POST /mcp with the official SDK client", () => {
  it("connects with an API key, lists the tools its scopes allow, and a read-only key sees no write tools", async () => {
    const full = await connect(await apiKey(alice, ["read", "vote", "write"]));
    clients.push(full);
    expect(full.getServerVersion()?.name).toBe("claims-service");
    const { tools } = await full.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["search_claims", "get_claim", "cast_vote", "create_claim", "add_evidence", "list_notifications"]));
    const search = tools.find((t) => t.name === "search_claims")!;
    expect(search.annotations?.readOnlyHint).toBe(true);
    expect(search.inputSchema.properties).toHaveProperty("q");
    expect(search.outputSchema?.type).toBe("object");
    const vote = tools.find((t) => t.name === "cast_vote")!;
    expect(vote.annotations?.readOnlyHint).toBe(false);
    // Path parameters are fields of the input.
    expect(vote.inputSchema.properties).toHaveProperty("claim_id");
    expect(vote.inputSchema.properties).toHaveProperty("value");

    const readOnly = await connect(await apiKey(alice, ["read"]));
    clients.push(readOnly);
    const readTools = (await readOnly.listTools()).tools;
    expect(readTools.length).toBeGreaterThan(0);
    for (const tool of readTools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    expect(readTools.map((t) => t.name)).not.toContain("cast_vote");
    // Not listed, and refused when called anyway: the scope check is the router's.
    const sneaky = (await readOnly.callTool({ name: "cast_vote", arguments: { claim_id: bobsClaim, value: 0.1 } })) as CallToolResult;
    expect(sneaky.isError).toBe(true);
    expect(text(sneaky)).toBe("Insufficient permissions");
    expect((await rest(`/claims/${bobsClaim}`)).body.vote_count).toBe(0);
  });

  it("searches, reads a claim and casts a vote that REST shows afterwards", async () => {
    const client = await connect(await apiKey(alice, ["read", "vote"]));
    clients.push(client);
    const found = (await client.callTool({ name: "search_claims", arguments: { q: "octopuses hearts" } })) as CallToolResult;
    expect(found.isError).toBeFalsy();
    const list = found.structuredContent as { claims: { id: string }[]; total: number };
    expect(list.claims.map((c) => c.id)).toContain(bobsClaim);
    expect(text(found)).toMatch(/^1 of 1 claims$/);

    const got = (await client.callTool({ name: "get_claim", arguments: { claim_id: bobsClaim } })) as CallToolResult;
    expect((got.structuredContent as { statement: string }).statement).toBe("Octopuses have three hearts and blue blood");
    expect(text(got)).toContain(bobsClaim);

    const voted = (await client.callTool({ name: "cast_vote", arguments: { claim_id: bobsClaim, value: 0.9 } })) as CallToolResult;
    expect(voted.isError).toBeFalsy();
    expect((voted.structuredContent as { user_vote: number }).user_vote).toBe(0.9);
    const seen = await rest(`/claims/${bobsClaim}`, { token: alice.token });
    expect(seen.body.vote_count).toBe(1);
    expect(seen.body.user_vote).toBe(0.9);
  });

  it("a refused call is an isError result with the REST detail, and nothing changes", async () => {
    const client = await connect(bob.token);
    clients.push(client);
    const before = await rest(`/claims/${bobsClaim}`);
    const own = (await client.callTool({ name: "cast_vote", arguments: { claim_id: bobsClaim, value: 0.2 } })) as CallToolResult;
    expect(own.isError).toBe(true);
    expect(text(own)).toBe("Insufficient permissions");
    const invalid = (await client.callTool({ name: "cast_vote", arguments: { claim_id: bobsClaim, value: 7 } })) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toBe("value: must be between 0 and 1");
    const missing = (await client.callTool({ name: "get_claim", arguments: { claim_id: "00000000-0000-4000-8000-000000000000" } })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe("Claim not found");
    const after = await rest(`/claims/${bobsClaim}`);
    expect(after.body.vote_count).toBe(before.body.vote_count);
    expect(after.body.gradient).toBe(before.body.gradient);
    // An unknown tool is a JSON-RPC error, not a tool result.
    await expect(client.callTool({ name: "drop_tables", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("answers 401 with the resource metadata pointer without a credential or with a bad one, and 405 to GET", async () => {
    const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const none = await fetch(`${server.base}/mcp`, { method: "POST", headers, body: initialize });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${server.base}/.well-known/oauth-protected-resource"`);
    const bad = await fetch(`${server.base}/mcp`, { method: "POST", headers: { ...headers, authorization: "Bearer clm_notakey" }, body: initialize });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain('resource_metadata="');
    expect(await bad.json()).toEqual({ code: "invalid_token", detail: "Invalid or expired token" });
    const get = await fetch(`${server.base}/mcp`, { headers: { authorization: `Bearer ${alice.token}`, accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toContain("POST");
  });

  it("serves the protected-resource metadata (RFC 9728) the 401 points at", async () => {
    const res = await fetch(`${server.base}/.well-known/oauth-protected-resource`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const doc = await res.json();
    // RFC 9728 §2/§3: `resource` is the protected resource's identifier, an https (here: the test's
    // http) URL without a fragment, equal to the URL the client connects to.
    expect(doc.resource).toBe(`${server.base}/mcp`);
    expect(new URL(doc.resource).hash).toBe("");
    expect(doc.scopes_supported).toEqual(["read", "vote", "write", "webhooks"]);
    expect(doc.bearer_methods_supported).toEqual(["header"]);
    for (const [key, value] of Object.entries(doc)) if (key.endsWith("_documentation")) expect(() => new URL(String(value))).not.toThrow();
  });

  it("serves /llms.txt and each claim page's Markdown twin, linked from the page's head", async () => {
    const llms = await fetch(`${server.base}/llms.txt`);
    expect(llms.status).toBe(200);
    expect(llms.headers.get("content-type")).toContain("text/plain");
    const text = await llms.text();
    expect(text.startsWith("# Claims service\n\n> ")).toBe(true);
    expect(text).toContain(`[MCP endpoint](${server.base}/mcp)`);
    const md = await fetch(`${server.base}/claims/${bobsClaim}.md`);
    expect(md.status).toBe(200);
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await md.text()).toMatch(/^# Octopuses have three hearts and blue blood\n/);
    expect((await fetch(`${server.base}/claims/00000000-0000-4000-8000-000000000000.md`)).status).toBe(404);
    const page = await (await fetch(`${server.base}/claims/${bobsClaim}`)).text();
    // The address is absolute once the site knows its origin (docs/features/open-web.md), else relative.
    expect(page).toMatch(new RegExp(`<link rel="alternate" type="text/markdown" href="(?:https?://[^"/]+)?/claims/${bobsClaim}\\.md"/?>`));
  });

  it("once the only voter says it is automated, the claim page counts no vote and shows the agent's beside", async () => {
    const changed = await rest("/auth/me", { method: "PATCH", token: alice.token, body: { automated: true } });
    expect(changed.status).toBe(200);
    expect(changed.body.automated).toBe(true);
    const claim = await rest(`/claims/${bobsClaim}`);
    expect(claim.body.gradient).toBe(0.9);
    expect(claim.body.gradient_people).toBeNull();
    const page = await (await fetch(`${server.base}/claims/${bobsClaim}`)).text();
    // Who decides and who else voted, each with its sample size (docs/features/consensus-ui.md): no
    // counted vote, and the agent's beside, never deciding.
    const shown = /data-testid="consensus-samples"[^>]*>(.*?)<\/div>/s.exec(page)?.[1].replace(/<[^>]+>/g, "");
    expect(shown).toContain("Counted: 0 votes");
    expect(shown).toContain("Agents: 90% · 1 agent");
    expect(await (await fetch(`${server.base}/claims/${bobsClaim}.md`)).text()).toContain("- Gradient of people only (automated accounts left out): no votes by people");
  });

  it("charges each tool call to the caller's rate limit, like the REST call", async () => {
    const carol = await account("mcp_carol");
    const client = await connect(carol.token);
    clients.push(client);
    const before = await rest("/auth/me", { token: carol.token });
    const remainingBefore = Number((await fetch(`${server.base}/api/v1/auth/me`, { headers: { authorization: `Bearer ${carol.token}` } })).headers.get("x-ratelimit-remaining"));
    expect(before.status).toBe(200);
    for (let i = 0; i < 5; i++) await client.callTool({ name: "trending_claims", arguments: {} });
    const remainingAfter = Number((await fetch(`${server.base}/api/v1/auth/me`, { headers: { authorization: `Bearer ${carol.token}` } })).headers.get("x-ratelimit-remaining"));
    // Five tool calls and this REST call: six units (a window may hand a little back, never take more).
    expect(remainingBefore - remainingAfter).toBeGreaterThanOrEqual(5);
    expect(remainingBefore - remainingAfter).toBeLessThanOrEqual(6);
  });
});
