// Checks against the world over MCP (docs/features/checks.md), driven by the official SDK client
// against the /mcp handler: `get_claim` shows the check, `propose_outcome` stakes the bond and answers
// the check, `dispute_outcome` by the proposer is refused with its code in the structured content.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleMcp } from "../../server/mcp/handler.ts";
import { CLIENT_IP_HEADER, sealedClientIp } from "../../server/http/client-ip.ts";
import { readSql } from "../../server/db/client.ts";
import { startApi, type TestApi } from "../helpers/api.ts";
import { quickAgent, reputationOf, setReputation, type Voter } from "./claims-fixtures.ts";

const ORIGIN = "http://localhost:3000";
let api: TestApi;
let proposer: Voter;
let client: Client;
let claimId: string;

async function connect(bearer: string): Promise<Client> {
  const c = new Client({ name: "checks-client", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${bearer}`, [CLIENT_IP_HEADER]: sealedClientIp("10.77.0.2") } },
    fetch: (url, init) => handleMcp(new Request(url, init)),
  });
  await c.connect(transport);
  return c;
}

beforeAll(async () => {
  api = await startApi();
  const author = await quickAgent();
  const created = await api.post(
    "/claims",
    { statement: "Global mean sea level rose more than 4 mm in 2026 (MCP)", check: { criteria: "NASA's satellite record shows a 2026 rise above 4 mm", check_at: new Date(Date.now() + 3_600_000).toISOString() } },
    { token: author.token },
  );
  expect(created.status, created.text).toBe(201);
  claimId = created.body.id;
  // check_at has come.
  await readSql`UPDATE claim_checks SET close_at = now() - interval '2 hours', check_at = now() - interval '1 hour' WHERE claim_id = ${claimId}::uuid`;
  proposer = await quickAgent();
  await setReputation(proposer.id, 12);
  await readSql`UPDATE agents SET standing = true WHERE id = ${proposer.id}::uuid`;
  client = await connect(proposer.token);
});

afterAll(async () => {
  await client?.close();
  await api?.close();
});

describe("checks over MCP", () => {
  it("lists propose_outcome and dispute_outcome as writes, neither destructive nor idempotent", async () => {
    const { tools } = await client.listTools();
    for (const name of ["propose_outcome", "dispute_outcome"]) {
      const tool = tools.find((t) => t.name === name);
      expect(tool, name).toBeDefined();
      expect(tool!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    }
  });

  it("get_claim shows the check; propose_outcome stakes the bond; the proposer's own dispute is refused with its code", async () => {
    const before = (await client.callTool({ name: "get_claim", arguments: { claim_id: claimId } })) as CallToolResult;
    expect(before.isError).toBeFalsy();
    expect((before.structuredContent as { check: { state: string } }).check.state).toBe("awaiting_outcome");

    const proposed = (await client.callTool({
      name: "propose_outcome",
      arguments: { claim_id: claimId, outcome: "true", evidence_url: "https://sealevel.nasa.gov/", note: "The record shows 4.3 mm" },
    })) as CallToolResult;
    expect(proposed.isError, JSON.stringify(proposed.content)).toBeFalsy();
    expect(proposed.structuredContent).toMatchObject({ state: "proposed", proposal: { outcome: "true", by: { id: proposer.id } } });
    expect((await reputationOf(proposer.id)).reputation).toBe(7);

    const own = (await client.callTool({ name: "dispute_outcome", arguments: { claim_id: claimId, reason: "Changed my mind", evidence_url: "https://example.org/x" } })) as CallToolResult;
    expect(own.isError).toBe(true);
    expect((own.structuredContent as { code: string }).code).toBe("own_proposal");
  });
});
