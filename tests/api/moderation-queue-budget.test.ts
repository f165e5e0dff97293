// The moderation queue's budget (docs/security.md#budgets-what-one-request-may-cost): a target with
// more reports than REPORTS_PER_TARGET carries only its first ones, while report_count and the
// reasons still count every report. Before, the queue read and sent every report of every target on
// the page (3,000 reports with 1,000-character notes on one claim: 6.7 MB in one answer).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORT_REASONS, REPORTS_PER_TARGET } from "../../server/contract/moderation.ts";
import { grantAdmin } from "../../server/services/moderation.ts";
import { quickAgents } from "./claims-fixtures.ts";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";

let api: TestApi;
let admin: TestAgent;

beforeAll(async () => {
  api = await startApi();
  admin = await createAgent(api);
  expect((await grantAdmin(admin.username))?.role).toBe("admin");
});
afterAll(() => api.close());

describe("GET /moderation/reports on a much-reported target", () => {
  it(`carries the first ${REPORTS_PER_TARGET} reports and counts all of them`, { timeout: 60_000 }, async () => {
    const [author, ...reporters] = await quickAgents(REPORTS_PER_TARGET + 6);
    const claim = await api.post("/claims", { statement: `A claim many will report ${Date.now()}` }, { token: author.token });
    expect(claim.status, claim.text).toBe(201);
    const made: string[] = [];
    for (const [i, reporter] of reporters.entries()) {
      const res = await api.post("/reports", { target_type: "claim", target_id: claim.body.id, reason: REPORT_REASONS[i % REPORT_REASONS.length], note: `note ${i}` }, { token: reporter.token });
      expect(res.status, res.text).toBe(201);
      made.push(res.body.id);
    }
    const queue = await api.get("/moderation/reports?limit=100", { token: admin.token });
    expect(queue.status, queue.text).toBe(200);
    const target = queue.body.targets.find((t: { target_id: string }) => t.target_id === claim.body.id);
    expect(target.report_count).toBe(reporters.length);
    expect(target.reports.map((r: { id: string }) => r.id)).toEqual(made.slice(0, REPORTS_PER_TARGET));
    const counted = Object.values(target.reasons as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(counted).toBe(reporters.length);
    for (const [i, reason] of REPORT_REASONS.entries()) {
      expect(target.reasons[reason]).toBe(reporters.filter((_, k) => k % REPORT_REASONS.length === i).length);
    }
  });
});
