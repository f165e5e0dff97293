// Where a query's reads go when a replica is configured (server/db/read-routing.ts): the replica for a
// caller who has not written lately, the primary for one who has, and always the primary for the render
// of a page kept for everyone (docs/features/page-cache.md#the-database-a-kept-page-reads).
// tests/ops/replica.test.ts checks the same on a real streaming replica.
import { describe, expect, it } from "vitest";
import { markWrote, queryReadsReplica } from "../../server/db/read-routing.ts";

describe("a query's read route", () => {
  it("goes to the replica for a caller who has not written lately", async () => {
    expect(await queryReadsReplica({ agentId: null, ip: "203.0.113.10" })).toBe(true);
    expect(await queryReadsReplica({ agentId: "agent-never-wrote", ip: "203.0.113.11" })).toBe(true);
  });

  it("goes to the primary for a caller who just wrote, by agent and, when anonymous, by address", async () => {
    await markWrote("agent-wrote", "203.0.113.12");
    expect(await queryReadsReplica({ agentId: "agent-wrote", ip: "203.0.113.99" })).toBe(false);
    await markWrote(null, "203.0.113.13");
    expect(await queryReadsReplica({ agentId: null, ip: "203.0.113.13" })).toBe(false);
  });

  it("goes to the primary for the render of a kept page, whoever it is for", async () => {
    expect(await queryReadsReplica({ agentId: null, ip: "0.0.0.0", keptRender: true })).toBe(false);
    expect(await queryReadsReplica({ agentId: null, ip: "203.0.113.14", keptRender: false })).toBe(true);
  });
});
