// Shared set-up for the claims, votes, evidence, bookmark/follow and concurrency tests.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { db } from "../../server/db/client.ts";
import { issueTokenPair } from "../../server/services/auth.ts";
import { tierFor } from "../../server/domain/reputation.ts";
import type { TestApi } from "../helpers/api.ts";

/** A well-formed id that no row has. */
export const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

export interface Voter {
  id: string;
  token: string;
}

/**
 * An agent with a valid access token, made directly in the database (no bcrypt): tests that need
 * dozens of voters stay fast. Registration itself is covered by the auth tests.
 */
export async function quickAgent(): Promise<Voter> {
  const username = `q_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const agent = await db().agent.create({
    data: { username, usernameKey: username.toLowerCase(), displayName: username, email: `${username}@example.test` },
    select: { id: true },
  });
  const pair = await issueTokenPair(agent.id);
  return { id: agent.id, token: pair.access_token };
}

export async function quickAgents(n: number): Promise<Voter[]> {
  const agents: Voter[] = [];
  for (let i = 0; i < n; i++) agents.push(await quickAgent());
  return agents;
}

/**
 * Gives an agent a reputation the way the service would have: through a reputation event, so the
 * invariant "reputation = sum of its events" still holds afterwards.
 */
export async function setReputation(agentId: string, score: number): Promise<void> {
  const agent = await db().agent.findUniqueOrThrow({ where: { id: agentId }, select: { reputation: true } });
  await db().$transaction([
    db().agent.update({ where: { id: agentId }, data: { reputation: score, tier: tierFor(score) } }),
    db().reputationEvent.create({
      data: { agentId, delta: score - agent.reputation, reputationScore: score, reason: "evidence_upvoted" },
    }),
  ]);
}

export async function reputationOf(agentId: string) {
  return db().agent.findUniqueOrThrow({
    where: { id: agentId },
    select: { reputation: true, tier: true, resolvedVotes: true, correctResolvedVotes: true },
  });
}

export async function newClaim(
  api: TestApi,
  token: string,
  body: { statement?: string; tags?: string[]; complexity_tier?: string; parent_ids?: string[] } = {},
) {
  const res = await api.post("/claims", { statement: `A claim worth assessing ${randomUUID()}`, ...body }, { token });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; [k: string]: any };
}

export async function newEvidence(
  api: TestApi,
  token: string,
  claimId: string,
  body: { position?: string; content_type?: string; content?: string } = {},
) {
  const res = await api.post(
    `/claims/${claimId}/evidence`,
    { position: "supports", content_type: "text", content: "Measured twice, recorded once.", ...body },
    { token },
  );
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; [k: string]: any };
}

/** Row counts of everything the claim endpoints write: compare before/after a rejected request. */
export async function writeCounts() {
  const [claims, parents, votes, history, evidence, evidenceVotes, bookmarks, follows, events, counter] = await Promise.all([
    db().claim.count(),
    db().claimParent.count(),
    db().claimVote.count(),
    db().gradientHistory.count(),
    db().evidence.count(),
    db().evidenceVote.count(),
    db().bookmark.count(),
    db().follow.count(),
    db().reputationEvent.count(),
    db().platformCounter.findUnique({ where: { name: "claims" } }),
  ]);
  return { claims, parents, votes, history, evidence, evidenceVotes, bookmarks, follows, events, counter: Number(counter?.value ?? 0) };
}

/** PostgreSQL's uuid order is the order of the lower-case hex strings. */
export const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
