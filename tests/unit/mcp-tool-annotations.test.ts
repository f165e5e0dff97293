// Every tool a client lists carries a title and honest hints (docs/features/mcp.md#tools): a client
// (and a directory's review) decides from them whether a call needs the person's confirmation.
import { describe, expect, it } from "vitest";
import { allTools, TOOLS } from "../../server/mcp/tools.ts";

describe("the MCP tool table", () => {
  const tools = allTools();

  it("gives every tool a title of its own", () => {
    for (const tool of tools) expect(tool.title.trim(), tool.name).not.toBe("");
    expect(new Set(tools.map((t) => t.title)).size).toBe(tools.length);
  });

  it("decides both hints on every write tool, and none on a read", () => {
    for (const tool of tools) {
      const entry = TOOLS[tool.name] as { destructive?: boolean; idempotent?: boolean };
      if (tool.readOnly) {
        expect(entry.destructive, `${tool.name} reads: no destructive hint`).toBeUndefined();
        expect(tool.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
      } else {
        expect(typeof entry.destructive, `${tool.name}: destructive decided`).toBe("boolean");
        expect(typeof entry.idempotent, `${tool.name}: idempotent decided`).toBe("boolean");
        expect(tool.annotations).toEqual({ readOnlyHint: false, destructiveHint: entry.destructive, idempotentHint: entry.idempotent, openWorldHint: false });
      }
    }
  });

  it("marks what removes or undoes as destructive, and what repeating changes nothing more as idempotent", () => {
    const byName = new Map(tools.map((t) => [t.name, t.annotations]));
    for (const name of ["remove_vote", "unfollow_claim"] as const) expect(byName.get(name)?.destructiveHint, name).toBe(true);
    for (const name of ["cast_vote", "follow_claim", "unfollow_claim", "vote_relevance", "mark_notifications_read"] as const) {
      expect(byName.get(name)?.idempotentHint, name).toBe(true);
    }
    for (const name of ["create_claim", "add_evidence", "add_comment", "add_argument", "propose_outcome", "dispute_outcome"] as const) expect(byName.get(name)?.idempotentHint, name).toBe(false);
  });
});
