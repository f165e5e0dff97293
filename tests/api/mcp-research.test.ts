// `search` and `fetch`, the read tools deep-research clients call by these names (ChatGPT's deep
// research and connectors; docs/features/mcp.md#search-and-fetch), driven by the official SDK client
// against the /mcp handler: `search` answers one text item holding {"results":[{id,title,url}]},
// `fetch` one holding {id,title,text,url,metadata} whose text is the claim's Markdown twin. Hidden
// claims are found by neither, as on the claim's page.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleMcp } from "../../server/mcp/handler.ts";
import { CLIENT_IP_HEADER, sealedClientIp } from "../../server/http/client-ip.ts";
import { db } from "../../server/db/client.ts";
import { startApi, type TestApi } from "../helpers/api.ts";
import { newClaim, newEvidence, quickAgent, type Voter } from "./claims-fixtures.ts";

const ORIGIN = "http://localhost:3000";
let api: TestApi;
let author: Voter;
let client: Client;
let octopus: string;
let hidden: string;

async function connect(bearer: string): Promise<Client> {
  const c = new Client({ name: "research-client", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${bearer}`, [CLIENT_IP_HEADER]: sealedClientIp("10.77.0.1") } },
    // The route's handler in process: the SDK's requests exactly as it sends them over HTTP.
    fetch: (url, init) => handleMcp(new Request(url, init)),
  });
  await c.connect(transport);
  return c;
}

const textOf = (r: CallToolResult) => (r.content as { type: string; text: string }[]).filter((c) => c.type === "text");

beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  const claim = await newClaim(api, author.token, { statement: "Octopuses have three hearts and pump blue copper-based blood", tags: ["biology"] });
  octopus = claim.id;
  await newEvidence(api, author.token, octopus, { content: "Two branchial hearts and one systemic heart, described in every zoology text." });
  hidden = (await newClaim(api, author.token, { statement: "Octopuses hide a fourth heart that nobody has ever found" })).id;
  await db().claim.update({ where: { id: hidden }, data: { hiddenAt: new Date() } });
  client = await connect((await quickAgent()).token);
});

afterAll(async () => {
  await client?.close();
  await api?.close();
});

describe("search", () => {
  it("is listed as a read tool with a title", async () => {
    const { tools } = await client.listTools();
    for (const name of ["search", "fetch"]) {
      const tool = tools.find((t) => t.name === name);
      expect(tool, name).toBeDefined();
      expect(tool!.title).toBeTruthy();
      expect(tool!.annotations?.readOnlyHint).toBe(true);
    }
  });

  it("answers one text item holding the results to cite, for a question in words and for one word", async () => {
    for (const query of ["how many hearts does an octopus have", "octopuses"]) {
      const result = (await client.callTool({ name: "search", arguments: { query } })) as CallToolResult;
      expect(result.isError, query).toBeFalsy();
      const items = textOf(result);
      expect(items).toHaveLength(1);
      const { results } = JSON.parse(items[0].text) as { results: { id: string; title: string; url: string }[] };
      const hit = results.find((r) => r.id === octopus);
      expect(hit, query).toEqual({ id: octopus, title: "Octopuses have three hearts and pump blue copper-based blood", url: `${ORIGIN}/claims/${octopus}` });
      expect(results.map((r) => r.id), "a hidden claim is never found").not.toContain(hidden);
    }
  });

  it("refuses a blank query as the API refuses bad input: an error result, nothing found", async () => {
    const result = (await client.callTool({ name: "search", arguments: { query: "   " } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)[0].text).toMatch(/^query: /);
  });
});

describe("fetch", () => {
  it("answers the claim as text to read and cite: its Markdown twin, its page and what it stands at", async () => {
    const result = (await client.callTool({ name: "fetch", arguments: { id: octopus } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const doc = JSON.parse(textOf(result)[0].text) as { id: string; title: string; text: string; url: string; metadata: Record<string, unknown> };
    expect(doc).toMatchObject({ id: octopus, title: "Octopuses have three hearts and pump blue copper-based blood", url: `${ORIGIN}/claims/${octopus}` });
    expect(doc.text).toContain("# Octopuses have three hearts");
    expect(doc.text).toContain("Two branchial hearts and one systemic heart");
    expect(doc.metadata).toMatchObject({ vote_count: 0, tags: ["biology"] });
    expect(result.structuredContent).toEqual(doc);
  });

  it("does not find a hidden claim or an unknown id", async () => {
    for (const id of [hidden, "00000000-0000-4000-8000-000000000000"]) {
      const result = (await client.callTool({ name: "fetch", arguments: { id } })) as CallToolResult;
      expect(result.isError, id).toBe(true);
      expect(textOf(result)[0].text).toBe("Claim not found");
    }
  });
});
