// Loads the demo set (demo-data.ts) through the same services the API uses, so every counter, gradient,
// status, outcome and reputation is what real use would have produced. Loads once: a database that already has the demo
// agents is left alone.
import { hashPassword } from "../auth/passwords.ts";
import { createClaimInput } from "../contract/claims.ts";
import { db } from "../db/client.ts";
import { register } from "../services/auth.ts";
import { createClaim } from "../services/claims.ts";
import { createComment } from "../services/comments.ts";
import { createEvidence, voteEvidence } from "../services/evidence.ts";
import { runBridgingFit } from "../services/bridging.ts";
import { resolveDueClaims } from "../services/resolution.ts";
import { castVote } from "../services/votes.ts";
import { applyStandingRule, drainAllStanding } from "../services/standing.ts";
import { addArgument, voteRelevance } from "../services/arguments.ts";
import { DEMO_AGENTS, DEMO_ARGUMENTS, DEMO_CLAIMS, DEMO_PASSWORD, demoEmail, demoVotes } from "./demo-data.ts";
import { castDemoChecks, settleDemoChecks } from "./demo-checks.ts";

export { demoEmail, demoSignInText } from "./demo-data.ts";

export interface SeedResult {
  loaded: boolean;
  agents: number;
  claims: number;
  evidence: number;
  comments: number;
  votes: number;
  /** Claims that resolved once the demo's votes were in. */
  resolved: number;
  /** Claims made with a check against the world, one in every state (demo-checks.ts); not in `claims`. */
  checks: number;
}

/** Whether the database holds no agents and no claims (a first run). */
export async function databaseIsEmpty(): Promise<boolean> {
  const [agents, claims] = await Promise.all([db().agent.count(), db().claim.count()]);
  return agents === 0 && claims === 0;
}

export async function loadDemoData(): Promise<SeedResult> {
  const result: SeedResult = { loaded: false, agents: 0, claims: 0, evidence: 0, comments: 0, votes: 0, resolved: 0, checks: 0 };
  if (await db().agent.findFirst({ where: { email: demoEmail(DEMO_AGENTS[0].username) }, select: { id: true } })) return result;

  // The configured standing rule, as the background tasks store it at start (docs/features/consensus.md#standing).
  await applyStandingRule();
  const ids = new Map<string, string>();
  // Every demo agent has the same password: hashed once, not once per agent (bcrypt is slow on purpose).
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const a of DEMO_AGENTS) {
    const agent = await register(
      { email: demoEmail(a.username), password: DEMO_PASSWORD, username: a.username, display_name: a.display_name, automated: a.automated ?? false },
      { passwordHash },
    );
    // A history: joined days or weeks ago, the address verified a day later (or never).
    const joined = new Date(Date.now() - a.joinedDaysAgo * 86_400_000);
    await db().agent.update({
      where: { id: agent.id },
      data: { createdAt: joined, emailVerified: a.verified ? new Date(Math.min(Date.now(), joined.getTime() + 3_600_000)) : null },
    });
    ids.set(a.username, agent.id);
    result.agents++;
  }
  const agent = (username: string) => {
    const id = ids.get(username);
    if (!id) throw new Error(`demo data: unknown agent ${username}`);
    return id;
  };

  const claimIds = new Map<string, string>();
  for (const [index, c] of DEMO_CLAIMS.entries()) {
    const input = createClaimInput.parse({
      statement: c.statement,
      tags: c.tags,
      complexity_tier: c.complexity_tier,
      parent_ids: (c.parents ?? []).map((k) => claimIds.get(k)!),
    });
    const claim = await createClaim(agent(c.by), input);
    claimIds.set(c.key, claim.id);
    result.claims++;
    for (const [voter, value] of demoVotes(c, index)) {
      await castVote({ agentId: agent(voter), claimId: claim.id, value });
      result.votes++;
    }
    for (const e of c.evidence ?? []) {
      const evidence = await createEvidence(agent(e.by), { claim_id: claim.id, position: e.position, content_type: e.content_type, content: e.content });
      result.evidence++;
      for (const [who, direction] of [...(e.up ?? []).map((u) => [u, "up"] as const), ...(e.down ?? []).map((u) => [u, "down"] as const)]) {
        if (who === e.by) continue;
        await voteEvidence({ agentId: agent(who), evidenceId: evidence.id, direction });
        result.votes++;
      }
    }
    for (const cm of c.comments ?? []) {
      const comment = await createComment(agent(cm.by), { claim_id: claim.id, content: cm.content });
      result.comments++;
      for (const r of cm.replies ?? []) {
        await createComment(agent(r.by), { claim_id: claim.id, content: r.content, parent_id: comment.id });
        result.comments++;
      }
    }
  }
  for (const a of DEMO_ARGUMENTS) {
    const parentId = claimIds.get(a.under);
    if (!parentId) throw new Error(`demo data: unknown claim ${a.under}`);
    const child = a.child ? claimIds.get(a.child) : undefined;
    const argument = await addArgument(agent(a.by), {
      claim_id: parentId,
      stance: a.stance,
      ...(child ? { child_claim_id: child } : { statement: a.statement! }),
    });
    if (a.statement) {
      result.claims++;
      if (a.key) claimIds.set(a.key, argument.claim.id);
      for (const [voter, value] of Object.entries(a.votes ?? {})) {
        if (voter === a.by) continue;
        await castVote({ agentId: agent(voter), claimId: argument.claim.id, value });
        result.votes++;
      }
    }
    for (const [voter, value] of Object.entries(a.relevance)) {
      await voteRelevance({ agentId: agent(voter), argumentId: argument.id, value });
      result.votes++;
    }
  }
  // Claims checked against the world, in every state, with enough final outcomes for /calibration.
  const checks = await castDemoChecks(agent);
  result.checks = checks.length;
  // Every account's standing as of its five votes (or not), its votes sorted so, before the model reads
  // the counted ones.
  await drainAllStanding();
  // The viewpoint model scores the claims now rather than at the server's first background fit: a
  // first visit already shows which claims both viewpoints agree on.
  await runBridgingFit({ inline: true, foreground: true });
  // The claims at consensus with enough votes resolve by the service's own resolution, told not to
  // wait: a first visit shows resolved claims, scored votes, track records and a leaderboard, not a
  // promise of them in half an hour. Which claims resolve, and how, is the rule's alone.
  result.resolved = await resolveDueClaims(DEMO_CLAIMS.length + DEMO_ARGUMENTS.length + checks.length, 0);
  // Their outcomes, proposed and disputed by accounts that have standing by now.
  await settleDemoChecks(checks, agent, DEMO_AGENTS.map((a) => a.username));
  result.loaded = true;
  return result;
}
