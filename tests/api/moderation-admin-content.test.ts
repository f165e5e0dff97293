// Who may moderate whose content (docs/features/moderation.md#roles): a moderator cannot hide or restore
// an admin's claims, evidence or comments — not directly, not by resolving a report with `hide` — and an
// admin can, another admin's included. A refused action changes nothing and writes no audit entry.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../server/db/client.ts";
import { startApi, type TestApi } from "../helpers/api.ts";
import { quickAgent, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let admin: Voter;
let otherAdmin: Voter;
let moderator: Voter;
let member: Voter;

beforeAll(async () => {
  api = await startApi();
  [admin, otherAdmin, moderator, member] = [await quickAgent(), await quickAgent(), await quickAgent(), await quickAgent()];
  // Admin is granted outside the API (ADMIN_EMAILS or admin:grant, tested with moderation.test.ts).
  await db().agent.updateMany({ where: { id: { in: [admin.id, otherAdmin.id] } }, data: { role: "admin" } });
  expect((await api.request("PUT", `/admin/agents/${moderator.id}/role`, { token: admin.token, body: { role: "moderator" } })).status).toBe(200);
});
afterAll(() => api.close());

async function claimBy(who: Voter, statement: string): Promise<string> {
  const res = await api.post("/claims", { statement }, { token: who.token });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const auditCount = () => db().moderationAudit.count();
const hide = (who: Voter, type: string, id: string) => api.post(`/moderation/${type}/${id}/hide`, { reason: "spam" }, { token: who.token });
const restore = (who: Voter, type: string, id: string) => api.post(`/moderation/${type}/${id}/restore`, {}, { token: who.token });

describe("a moderator and an admin's content", () => {
  it("a moderator cannot hide an admin's claim, evidence or comment: 403, still visible, nothing audited", async () => {
    const claim = await claimBy(admin, "An admin's claim a moderator may not take down.");
    const evidence = await api.post(`/claims/${claim}/evidence`, { position: "supports", content_type: "text", content: "An admin's evidence." }, { token: admin.token });
    const comment = await api.post(`/claims/${claim}/comments`, { content: "An admin's comment." }, { token: admin.token });
    expect(evidence.status).toBe(201);
    expect(comment.status).toBe(201);
    const before = await auditCount();
    for (const [type, id] of [["claim", claim], ["evidence", evidence.body.id], ["comment", comment.body.id]]) {
      const refused = await hide(moderator, type, id);
      expect(refused.status, `${type}: ${refused.text}`).toBe(403);
      expect(refused.body).toEqual({ code: "forbidden", detail: "Insufficient permissions" });
    }
    expect((await api.get(`/claims/${claim}`)).status).toBe(200);
    expect((await api.get(`/claims/${claim}/evidence`)).body.total).toBe(1);
    expect((await api.get(`/claims/${claim}/comments`)).body.total).toBe(1);
    expect(await auditCount()).toBe(before);
  });

  it("nor by resolving a report on it with `hide`; the report stays open, and dismissing it is allowed", async () => {
    const claim = await claimBy(admin, "An admin's claim reported by a member.");
    const report = await api.post("/reports", { target_type: "claim", target_id: claim, reason: "spam" }, { token: member.token });
    expect(report.status).toBe(201);
    const refused = await api.post(`/moderation/reports/${report.body.id}/resolve`, { action: "hide" }, { token: moderator.token });
    expect(refused.status).toBe(403);
    expect((await api.get(`/claims/${claim}`)).status).toBe(200);
    expect((await db().report.findUnique({ where: { id: report.body.id } }))?.status).toBe("open");
    const dismissed = await api.post(`/moderation/reports/${report.body.id}/resolve`, { action: "dismiss" }, { token: moderator.token });
    expect(dismissed.status).toBe(204);
  });

  it("a moderator cannot restore an admin's content an admin hid", async () => {
    const claim = await claimBy(otherAdmin, "An admin's claim another admin hid.");
    expect((await hide(admin, "claim", claim)).status).toBe(204);
    const before = await auditCount();
    expect((await restore(moderator, "claim", claim)).status).toBe(403);
    expect((await api.get(`/claims/${claim}`)).status).toBe(404);
    expect(await auditCount()).toBe(before);
  });

  it("an admin can hide and restore another admin's content; a moderator still a member's", async () => {
    const claim = await claimBy(otherAdmin, "An admin's claim the other admin moderates.");
    expect((await hide(admin, "claim", claim)).status).toBe(204);
    expect((await api.get(`/claims/${claim}`)).status).toBe(404);
    expect((await restore(admin, "claim", claim)).status).toBe(204);
    expect((await api.get(`/claims/${claim}`)).status).toBe(200);

    const members = await claimBy(member, "A member's claim a moderator takes down.");
    expect((await hide(moderator, "claim", members)).status).toBe(204);
    expect((await api.get(`/claims/${members}`)).status).toBe(404);
    expect((await restore(moderator, "claim", members)).status).toBe(204);
    expect((await api.get(`/claims/${members}`)).status).toBe(200);
  });

  it("an unknown target is still a 404, not a 403", async () => {
    expect((await hide(moderator, "claim", "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await restore(moderator, "comment", "00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });
});
