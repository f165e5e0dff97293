// Deleting an account after one of every kind of contribution (docs/features/accounts.md, "Deletion"):
// claims, votes, evidence and its votes, comments, arguments and relevance votes, follows, bookmarks,
// the inbox, reports both ways, moderation by the account, webhooks and their deliveries, API keys,
// mailed links, web sessions, OAuth links and one-time codes, an MCP client's grant and tokens and a
// consent in flight, the bridging fit and a resolved claim's track record. Every reference listed in
// server/services/account-references.ts is made to name the account first (so a new entry without a
// contribution here fails too); then POST /auth/me/delete answers 204, checkInvariants() is exact,
// nothing names the account any more, what it wrote belongs to the tombstone, and others' content is
// as it was.
process.env.WEBHOOK_ALLOW_PRIVATE = "1";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, readSql } from "../../server/db/client.ts";
import { Prisma } from "../../server/db/generated/client.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { AGENT_REFERENCES, rowsNaming, type AgentReference } from "../../server/services/account-references.ts";
import { grantAdmin } from "../../server/services/moderation.ts";
import { startWebSession } from "../../server/services/web-sessions.ts";
import { createExchangeCode } from "../../server/services/oauth.ts";
import { signInWithProvider } from "../../server/services/oauth-accounts.ts";
import { fanOutEvents } from "../../server/services/notifications.ts";
import { runBridgingFit } from "../../server/services/bridging.ts";
import { verifyMcpAccessToken } from "../../server/oauth/access-tokens.ts";
import { TOMBSTONE_AGENT_ID } from "../../server/domain/accounts.ts";
import { createAgent, type TestAgent, type TestApi } from "../helpers/api.ts";
import { afterSignUpMail, tokenIn, type SmtpSink } from "../helpers/smtp-sink.ts";
import { OAuthProviderServer, startCredentialServers, type AnsweredConsent } from "../helpers/mcp-code-flow.ts";
import { quickAgents, setReputation, type Voter } from "./claims-fixtures.ts";
import { disputeOutcome, finaliseDueOutcomes, proposeOutcome, settleOutcome } from "../../server/services/checks.ts";

/** References a test cannot make name one account on purpose, with the reason. */
const NOT_MADE: Record<string, string> = {
  "outbox_events.fanout_cursor": "exists only mid-way through the fan-out of a claim with more followers than one batch",
};

let api: TestApi;
let smtp: SmtpSink;
// The authorization server for MCP clients, as the node-level guard hands requests to it (its own address the issuer).
let oauth: OAuthProviderServer;
let servers: Awaited<ReturnType<typeof startCredentialServers>>;
beforeAll(async () => void ({ api, smtp, oauth } = servers = await startCredentialServers()));
afterAll(() => servers.close());

async function ok<T = any>(res: Promise<{ status: number; text: string; body: T }>, status = 200): Promise<T> {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r.body;
}

/** Rows of each reference that name `agentId` (for `kept` ones too). */
async function namingCounts(agentId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const ref of AGENT_REFERENCES as readonly AgentReference[]) {
    const [row] = await readSql<{ n: number }>(
      Prisma.sql`SELECT count(*)::int AS n FROM ${Prisma.raw(ref.table)} WHERE ${rowsNaming(ref, Prisma.sql`${agentId}::uuid`)}`,
    );
    counts.set(`${ref.table}.${ref.column}`, row.n);
  }
  return counts;
}

/** What others wrote, as it must stay (neither the account's nor, afterwards, the tombstone's). */
async function othersContent(leavingId: string) {
  const [claims, evidence, comments, args] = await Promise.all([
    readSql`SELECT id::text, statement, author_id::text, hidden_at IS NOT NULL AS hidden FROM claims WHERE author_id NOT IN (${leavingId}::uuid, ${TOMBSTONE_AGENT_ID}::uuid) ORDER BY id`,
    readSql`SELECT id::text, content, author_id::text FROM evidence WHERE author_id NOT IN (${leavingId}::uuid, ${TOMBSTONE_AGENT_ID}::uuid) ORDER BY id`,
    readSql`SELECT id::text, content, author_id::text, parent_id::text, is_deleted FROM comments WHERE author_id NOT IN (${leavingId}::uuid, ${TOMBSTONE_AGENT_ID}::uuid) ORDER BY id`,
    readSql`SELECT id::text, parent_claim_id::text, child_claim_id::text, author_id::text FROM arguments WHERE author_id NOT IN (${leavingId}::uuid, ${TOMBSTONE_AGENT_ID}::uuid) ORDER BY id`,
  ]);
  return { claims, evidence, comments, args };
}

describe("deleting an account after every kind of contribution", () => {
  let leaving: TestAgent;
  let others: Voter[];
  let admin: TestAgent;
  const claims: string[] = [];
  let ownClaim: string;
  let ownArgument: string;
  let ownEvidence: string;
  let ownComment: string;
  let reply: string;
  let mcpAccessToken: string;
  let pendingConsent: AnsweredConsent;

  beforeAll(async () => {
    leaving = await createAgent(api);
    admin = await createAgent(api);
    others = await quickAgents(10);
    const author = others[0];
    for (let i = 0; i < 12; i++) claims.push((await ok(api.post("/claims", { statement: `Claim ${i} for the deletion of an account that did everything.` }, { token: author.token }), 201)).id);

    // Votes (not the author's: authors do not vote on their own claims): enough voters on enough claims
    // for the bridging fit to give the account a factor, and a claim that resolves with the account
    // among its voters (outcome records, track records).
    for (const [i, id] of claims.entries()) {
      await ok(api.post(`/claims/${id}/vote`, { value: i === 0 ? 0.95 : (i % 4) / 4 }, { token: leaving.token }));
      for (const [j, o] of others.slice(1, 6).entries()) await ok(api.post(`/claims/${id}/vote`, { value: i === 0 ? 0.95 : ((i + j) % 5) / 4 }, { token: o.token }));
    }
    for (const o of others.slice(6)) await ok(api.post(`/claims/${claims[0]}/vote`, { value: 0.95 }, { token: o.token }));
    expect(await runBridgingFit({ inline: true })).not.toBeNull();

    // What the account writes, and what others do with it.
    ownClaim = (await ok(api.post("/claims", { statement: "A claim written by the account that will leave." }, { token: leaving.token }), 201)).id;
    await ok(api.post(`/claims/${ownClaim}/vote`, { value: 0.3 }, { token: others[1].token }));
    ownEvidence = (await ok(api.post(`/claims/${claims[1]}/evidence`, { position: "supports", content_type: "text", content: "Evidence of the leaving account" }, { token: leaving.token }), 201)).id;
    await ok(api.post(`/evidence/${ownEvidence}/vote`, { direction: "up" }, { token: others[2].token }));
    const othersEvidence = (await ok(api.post(`/claims/${claims[2]}/evidence`, { position: "opposes", content_type: "text", content: "Someone else's evidence" }, { token: author.token }), 201)).id;
    await ok(api.post(`/evidence/${othersEvidence}/vote`, { direction: "down" }, { token: leaving.token }));
    ownComment = (await ok(api.post(`/claims/${claims[3]}/comments`, { content: "A comment by the leaving account" }, { token: leaving.token }), 201)).id;
    reply = (await ok(api.post(`/claims/${claims[3]}/comments`, { content: "A reply to it", parent_id: ownComment }, { token: others[3].token }), 201)).id;

    // Arguments: a new claim as an argument, an existing claim linked, relevance votes both ways.
    ownArgument = (await ok(api.post(`/claims/${claims[4]}/arguments`, { stance: "supports", statement: "An argument the leaving account added as a new claim." }, { token: leaving.token }), 201)).id;
    await ok(api.post(`/claims/${ownClaim}/arguments`, { stance: "opposes", child_claim_id: claims[5] }, { token: leaving.token }), 201);
    const othersArgument = (await ok(api.post(`/claims/${claims[6]}/arguments`, { stance: "opposes", child_claim_id: claims[7] }, { token: author.token }), 201)).id;
    await ok(api.post(`/arguments/${othersArgument}/relevance`, { value: 0.9 }, { token: leaving.token }));
    await ok(api.post(`/arguments/${ownArgument}/relevance`, { value: 0.4 }, { token: leaving.token }));
    await ok(api.post(`/arguments/${ownArgument}/relevance`, { value: 0.7 }, { token: others[1].token }));

    // Bookmarks, follows, the inbox and a webhook's delivery.
    await ok(api.post(`/claims/${claims[8]}/bookmark`, undefined, { token: leaving.token }));
    await ok(api.post(`/claims/${claims[9]}/follow`, undefined, { token: leaving.token }));
    await ok(api.post("/webhooks", { url: "http://127.0.0.1:9/hook", events: ["claim.commented"] }, { token: leaving.token }), 201);
    await ok(api.post(`/claims/${claims[9]}/comments`, { content: "News for the followers" }, { token: others[4].token }), 201);
    const events = await readSql<{ id: string }>`SELECT id::text AS id FROM outbox_events WHERE fanned_out_at IS NULL ORDER BY id`;
    await fanOutEvents(events.map((e) => e.id), async () => {});
    expect(await db().webhookDelivery.count({ where: { webhook: { agentId: leaving.id } } })).toBeGreaterThan(0);

    // Credentials of every kind.
    await ok(api.post("/auth/api-keys", { name: "doomed", scopes: ["read"] }, { token: leaving.token }), 201);
    await startWebSession(leaving.id);
    await createExchangeCode(leaving.id);
    const since = await afterSignUpMail(smtp, leaving.email);
    await ok(api.post("/auth/email/verify", {}, { token: leaving.token }), 202);
    const verification = tokenIn(await smtp.waitForMail(leaving.email, { since }), "/verify-email");
    await ok(api.post("/auth/email/verify/confirm", { token: verification }), 204);
    const linked = await signInWithProvider({ provider: "github", providerAccountId: `gh-${leaving.id}`, verifiedEmail: leaving.email, name: null, image: null, usernameHints: [] });
    expect(linked).toMatchObject({ kind: "agent", agentId: leaving.id, linked: true });

    // An MCP client authorised all the way (grant, code, tokens, the OAuth server's session), and a
    // second consent given but not yet taken back to the client.
    const mcp = await oauth.connectMcpClient(leaving.id, "read vote");
    mcpAccessToken = mcp.access;
    expect(await verifyMcpAccessToken(oauth.issuer, mcpAccessToken)).toMatchObject({ agentId: leaving.id });
    pendingConsent = await oauth.answerConsent(leaving.id, "read vote");

    // Reports both ways; moderation by the account (admin:grant audits itself as actor and target).
    await ok(api.post("/reports", { target_type: "claim", target_id: claims[10], reason: "spam" }, { token: leaving.token }), 201);
    await ok(api.post("/reports", { target_type: "agent", target_id: leaving.id, reason: "abuse" }, { token: others[5].token }), 201);
    expect((await grantAdmin(leaving.username))?.role).toBe("admin");
    const report = await ok(api.post("/reports", { target_type: "claim", target_id: claims[11], reason: "spam" }, { token: others[6].token }), 201);
    await ok(api.post(`/moderation/reports/${report.id}/resolve`, { action: "hide", note: "spam" }, { token: leaving.token }), 204);
    await grantAdmin(admin.username);

    // Checks against the world (terms written directly: the claims have votes, so the API no longer
    // sets terms on them), with the outcome steps through the service: the account proposes one
    // (final, undisputed), disputes another (left disputed) and settles a third as a moderator; and a
    // dated clarification on its own claim's check.
    const terms = (claimId: string) => Prisma.sql`
      INSERT INTO claim_checks (claim_id, criteria, close_at, check_at, updated_at)
      VALUES (${claimId}::uuid, 'The measurement is published', now() - interval '2 days', now() - interval '1 day', now())`;
    for (const id of [ownClaim, claims[1], claims[2], claims[3]]) await db().$executeRaw(terms(id));
    for (const who of [leaving, others[6], others[7], others[8]]) await setReputation(who.id, 100);
    const step = (result: { ok: boolean }) => expect(result).toEqual({ ok: true });
    const proposal = (claimId: string, proposerId: string) => ({ claimId, proposerId, outcome: "true" as const, evidenceUrl: "https://example.org/report", note: "Published" });
    const dispute = (claimId: string, disputerId: string) => ({ claimId, disputerId, reason: "Not what the report says", evidenceUrl: "https://example.org/other" });
    step(await proposeOutcome(proposal(claims[1], leaving.id)));
    step(await proposeOutcome(proposal(claims[2], others[6].id)));
    step(await disputeOutcome(dispute(claims[2], leaving.id)));
    step(await proposeOutcome(proposal(claims[3], others[7].id)));
    step(await disputeOutcome(dispute(claims[3], others[8].id)));
    step(await settleOutcome({ claimId: claims[3], moderatorId: leaving.id, outcome: "false", reason: "The report says otherwise" }));
    expect(await finaliseDueOutcomes(new Date(Date.now() + 30 * 86_400_000))).toBe(1);
    await db().$executeRaw(Prisma.sql`INSERT INTO check_clarifications (claim_id, text, author_id) VALUES (${ownClaim}::uuid, 'Measured at noon', ${leaving.id}::uuid)`);
    // A vote as it stood at a check's close_at, kept when the account changed it afterwards (the vote
    // dated before close, as time passing would leave it).
    await db().$executeRaw(Prisma.sql`UPDATE claim_votes SET created_at = now() - interval '3 days', updated_at = now() - interval '3 days' WHERE claim_id = ${claims[4]}::uuid AND agent_id = ${leaving.id}::uuid`);
    await db().$executeRaw(terms(claims[4]));
    await ok(api.post(`/claims/${claims[4]}/vote`, { value: 0.85 }, { token: leaving.token }));
    // Follows of a topic and of people, both ways.
    await ok(api.post("/topics/science/follow", undefined, { token: leaving.token }));
    await ok(api.post(`/profiles/${others[0].id}/follow`, undefined, { token: leaving.token }));
    await ok(api.post(`/profiles/${leaving.id}/follow`, undefined, { token: others[1].token }));

    expect(await checkInvariants()).toEqual([]);
  }, 120_000);

  it("answers 204, corrects everything, and leaves nothing naming the account", async () => {
    const before = await namingCounts(leaving.id);
    const missing = [...before].filter(([k, n]) => n === 0 && !NOT_MADE[k]).map(([k]) => k);
    expect(missing, "references the set-up did not make name the account: add a contribution of that kind").toEqual([]);
    const tombstoneBefore = await namingCounts(TOMBSTONE_AGENT_ID);
    const othersBefore = await othersContent(leaving.id);

    const res = await api.post("/auth/me/delete", { password: leaving.password }, { token: leaving.token });
    expect(res.status, res.text).toBe(204);
    expect(await checkInvariants()).toEqual([]);

    const after = await namingCounts(leaving.id);
    const tombstoneAfter = await namingCounts(TOMBSTONE_AGENT_ID);
    for (const ref of AGENT_REFERENCES as readonly AgentReference[]) {
      const k = `${ref.table}.${ref.column}`;
      if (ref.onDeletion === "kept") expect(after.get(k), k).toBe(before.get(k));
      else expect(after.get(k), k).toBe(0);
      // The tombstone owns exactly what the account wrote or did for others.
      if (ref.onDeletion === "tombstone") expect(tombstoneAfter.get(k), k).toBe(tombstoneBefore.get(k)! + before.get(k)!);
    }
    expect(await db().agent.count({ where: { id: leaving.id } })).toBe(0);

    // Others' content is as it was (the claim hidden by the account's moderation stays hidden).
    expect(await othersContent(leaving.id)).toEqual(othersBefore);
    const replyRow = await db().comment.findUniqueOrThrow({ where: { id: reply } });
    expect(replyRow.parentId).toBe(ownComment);

    // What the account wrote reads as the tombstone's, through the API.
    expect((await ok(api.get(`/claims/${ownClaim}`))).author.username).toBe("deleted");
    expect((await ok(api.get(`/evidence/${ownEvidence}`))).author.username).toBe("deleted");
    const args = await ok(api.get(`/claims/${claims[4]}/arguments`));
    expect(args.arguments.find((a: { id: string }) => a.id === ownArgument)).toMatchObject({ author: { username: "deleted" }, relevance: { votes: 1 } });
    expect((await ok(api.get(`/claims/${ownClaim}/tree`))).claim ?? {}).toBeDefined();
    const audit = await ok(api.get("/moderation/audit", { token: admin.token }));
    expect(audit.entries.filter((e: { actor: { username: string } }) => e.actor.username === "deleted").length).toBeGreaterThan(0);

    // No credential of the account works any more, the MCP client's included, and the consent in
    // flight ends in a refusal, not an error.
    expect((await api.get("/auth/me", { token: leaving.token })).status).toBe(401);
    expect(await verifyMcpAccessToken(oauth.issuer, mcpAccessToken)).toBeNull();
    const resumed = await fetch(oauth.at(pendingConsent.returnTo), { redirect: "manual", headers: { cookie: pendingConsent.jar.header() } });
    expect(resumed.status).toBeLessThan(500);
    expect(resumed.headers.get("location") ?? "").not.toMatch(/[?&]code=/);
    expect(await checkInvariants()).toEqual([]);
  });
});
