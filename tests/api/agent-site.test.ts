// The site as agents read it, in process against the real database: a claim's Markdown twin (the
// statement, gradient, voters, bridging, the evidence by position with links; hidden → 404 for
// everyone) and /llms.txt in llmstxt.org's shape. Served over HTTP by the built server in
// tests/smoke/mcp.test.ts. Both are charged to the client's API budget, as the same reads over /api/v1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../server/config.ts";
import { CLIENT_IP_HEADER, sealedClientIp } from "../../server/http/client-ip.ts";
import { rateLimiter } from "../../server/ratelimit/limiter.ts";
import { claimMarkdownResponse, llmsTxtResponse } from "../../server/mcp/site.ts";
import { grantAdmin, hide } from "../../server/services/moderation.ts";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { newClaim, newEvidence } from "./claims-fixtures.ts";

let api: TestApi;
let author: TestAgent;
let voter: TestAgent;
// The configured public address wins over the Host header (server/http/public-origin.ts).
const ORIGIN = config().NEXTAUTH_URL ? new URL(config().NEXTAUTH_URL!).origin : "http://claims.example";
const get = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { host: "claims.example" } });

beforeAll(async () => {
  api = await startApi();
  [author, voter] = await Promise.all([createAgent(api), createAgent(api)]);
});
afterAll(() => api.close());

describe("the Markdown twin of a claim page", () => {
  it("carries the statement, the gradient, the voters, bridging and the evidence by position with links", async () => {
    const claim = await newClaim(api, author.token, { statement: "Honey never spoils when sealed", tags: ["food"] });
    await newEvidence(api, voter.token, claim.id, { position: "supports", content_type: "link", content: "https://example.org/honey" });
    await newEvidence(api, voter.token, claim.id, { position: "opposes", content: "Moisture lets yeast grow." });
    await api.post(`/claims/${claim.id}/vote`, { value: 0.8 }, { token: voter.token });

    const res = await claimMarkdownResponse(get(`/claims/${claim.id}.md`), claim.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const md = await res.text();
    expect(md.startsWith("# Honey never spoils when sealed\n")).toBe(true);
    expect(md).toContain(`- Claim: ${ORIGIN}/claims/${claim.id}`);
    expect(md).toContain("- Gradient (reputation-weighted mean of the votes, 0 = false, 1 = true): 0.800");
    expect(md).toContain("- Voters: 1");
    expect(md).toContain("- Consensus: too few votes");
    expect(md).toContain("- Bridging (agreement across viewpoints): insufficient data");
    expect(md).toContain(`[food](${ORIGIN}/topics/food)`);
    expect(md).toMatch(/## Evidence \(2\)\n\n### Supports\n\n- <https:\/\/example.org\/honey> — score 0/);
    expect(md).toMatch(/### Opposes\n\n- score 0 \(\+0\/−0\), by \[.*\]\(.*\/profiles\/.*\): Moisture lets yeast grow\./);
  });

  it("answers 404 for an unknown id and for a hidden claim, its author's request included", async () => {
    expect((await claimMarkdownResponse(get("/claims/nope.md"), "nope")).status).toBe(404);
    const claim = await newClaim(api, author.token);
    const admin = await createAgent(api);
    const granted = await grantAdmin(admin.username);
    await hide({ actor: { id: admin.id, role: granted!.role }, type: "claim", id: claim.id, reason: "spam" });
    const res = await claimMarkdownResponse(
      new Request(`${ORIGIN}/claims/${claim.id}.md`, { headers: { authorization: `Bearer ${author.token}` } }),
      claim.id,
    );
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("Claim not found\n");
  });
});

describe("/llms.txt", () => {
  it("has an H1, a > summary, and sections linking the OpenAPI document, the MCP endpoint and the docs", async () => {
    const res = await llmsTxtResponse(get("/llms.txt"));
    expect(res.status).toBe(200);
    const text = await res.text();
    const lines = text.split("\n");
    expect(lines[0]).toBe("# Claims service");
    expect(lines[2].startsWith("> ")).toBe(true);
    expect(text).toContain(`(${ORIGIN}/api/v1/openapi.json)`);
    expect(text).toContain(`[MCP endpoint](${ORIGIN}/mcp)`);
    expect(text).toMatch(/\n## Docs\n/);
    // Every link line is "- [name](url)" with an absolute URL.
    for (const line of lines.filter((l) => l.startsWith("- "))) expect(line).toMatch(new RegExp(`^- \\[[^\\]]+\\]\\(${ORIGIN.replace(/[.]/g, "\\.")}/[^)]*\\)`));
  });
});

describe("what the agents' site costs (docs/security.md#limits-what-each-protects-and-how-it-is-keyed)", () => {
  it("charges its procedure calls to the client's API budget, as /api/v1 would: a claim's Markdown four reads (the claim, its evidence, its arguments, where it argues), /llms.txt one", async () => {
    const claim = await newClaim(api, author.token);
    const ip = `10.${process.pid % 250}.200.${Math.floor(Math.random() * 250)}`;
    const from = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { [CLIENT_IP_HEADER]: sealedClientIp(ip) } });
    const left = async () => (await rateLimiter().peekRequest({ ip })).remaining;
    const before = await left();
    expect((await claimMarkdownResponse(from(`/claims/${claim.id}.md`), claim.id)).status).toBe(200);
    expect(await left()).toBe(before - 4);
    expect((await llmsTxtResponse(from("/llms.txt"))).status).toBe(200);
    expect(await left()).toBe(before - 5);
  });
});
