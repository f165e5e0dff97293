// The MCP tool list in docs/features/mcp.md is the one the server lists: regenerate it with
// `npm run docs:mcp-tools` when a procedure's summary, input, scope or the tool table changes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allTools, TOOL_PROCEDURES } from "../../server/mcp/tools.ts";
import { withCurrentTools } from "../../server/mcp/tools-doc.ts";

const DOC = path.resolve(import.meta.dirname, "../../docs/features/mcp.md");

describe("docs/features/mcp.md", () => {
  it("lists exactly the tools the server generates (npm run docs:mcp-tools)", () => {
    const doc = readFileSync(DOC, "utf8");
    expect(doc).toBe(withCurrentTools(doc));
  });

  it("generates every tool whose procedure exists, with object schemas and the router's scope", () => {
    const tools = allTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["search_claims", "get_claim", "cast_vote", "related_claims"]));
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      if (tool.outputSchema) expect(tool.outputSchema.type).toBe("object");
      expect(tool.procedure).toBe(TOOL_PROCEDURES[tool.name]);
    }
    expect(tools.find((t) => t.name === "cast_vote")).toMatchObject({ scope: "vote", readOnly: false, rest: "POST /claims/{claim_id}/vote" });
    expect(tools.find((t) => t.name === "remove_vote")?.outputSchema).toBeUndefined();
  });
});
