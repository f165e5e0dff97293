// The export of everything an account holds (docs/features/accounts.md, "Export"), without secrets.
import { db } from "../db/client.ts";
import type { AccountExport } from "../contract/accounts.ts";
import { getAccount } from "./accounts.ts";

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** GET /auth/me/export: everything the account holds, without secrets (key and webhook secrets, hashes). */
export async function exportAccount(agentId: string): Promise<AccountExport> {
  const where = { agentId };
  const [account, agent, claims, evidence, comments, votes, evidenceVotes, outcomes, bookmarks, follows, notifications, apiKeys, webhooks, history] =
    await Promise.all([
      getAccount(agentId),
      db().agent.findUniqueOrThrow({ where: { id: agentId }, select: { accounts: { select: { provider: true } } } }),
      db().claim.findMany({ where: { authorId: agentId }, orderBy: { createdAt: "asc" } }),
      db().evidence.findMany({ where: { authorId: agentId }, orderBy: { createdAt: "asc" } }),
      db().comment.findMany({ where: { authorId: agentId }, orderBy: { createdAt: "asc" } }),
      db().claimVote.findMany({ where, orderBy: { createdAt: "asc" } }),
      db().evidenceVote.findMany({ where, orderBy: { createdAt: "asc" } }),
      db().voteOutcomeRecord.findMany({ where, orderBy: { resolvedAt: "asc" } }),
      db().bookmark.findMany({ where, orderBy: { createdAt: "asc" } }),
      db().follow.findMany({ where, orderBy: { createdAt: "asc" } }),
      db().notification.findMany({ where, orderBy: { updatedAt: "asc" } }),
      db().apiKey.findMany({ where, orderBy: { createdAt: "asc" } }),
      db().webhook.findMany({ where, orderBy: { createdAt: "asc" } }),
      db().reputationEvent.findMany({ where, orderBy: { id: "asc" } }),
    ]);
  return {
    exported_at: new Date().toISOString(),
    account: { ...account, oauth_providers: agent.accounts.map((a) => a.provider) },
    claims: claims.map((c) => ({
      id: c.id,
      statement: c.statement,
      complexity_tier: c.complexityTier,
      tags: c.tags,
      gradient: c.gradient,
      vote_count: c.voteCount,
      evidence_count: c.evidenceCount,
      hidden: c.hiddenAt !== null,
      created_at: iso(c.createdAt),
      updated_at: iso(c.updatedAt),
    })),
    evidence: evidence.map((e) => ({
      id: e.id,
      claim_id: e.claimId,
      position: e.position,
      content_type: e.contentType,
      content: e.content,
      upvotes: e.upvotes,
      downvotes: e.downvotes,
      hidden: e.hiddenAt !== null,
      created_at: iso(e.createdAt),
    })),
    comments: comments.map((c) => ({
      id: c.id,
      claim_id: c.claimId,
      parent_id: c.parentId,
      content: c.content,
      is_deleted: c.isDeleted,
      is_edited: c.isEdited,
      hidden: c.hiddenAt !== null,
      created_at: iso(c.createdAt),
    })),
    votes: votes.map((v) => ({ claim_id: v.claimId, value: v.value, created_at: iso(v.createdAt), updated_at: iso(v.updatedAt) })),
    evidence_votes: evidenceVotes.map((v) => ({ evidence_id: v.evidenceId, direction: v.direction, created_at: iso(v.createdAt) })),
    resolved_votes: outcomes.map((o) => ({
      claim_id: o.claimId,
      value: o.value,
      outcome: o.outcome,
      consensus_true: o.consensusTrue,
      resolved_at: iso(o.resolvedAt),
    })),
    bookmarks: bookmarks.map((b) => ({ claim_id: b.claimId, created_at: iso(b.createdAt) })),
    follows: follows.map((f) => ({
      claim_id: f.claimId,
      notify_on_vote: f.notifyOnVote,
      notify_on_evidence: f.notifyOnEvidence,
      notify_on_comment: f.notifyOnComment,
      created_at: iso(f.createdAt),
    })),
    notifications: notifications.map((n) => ({
      claim_id: n.claimId,
      reasons: { votes: n.votes, evidence: n.evidence, comments: n.comments, resolved: n.resolved },
      unread: n.unread,
      updated_at: iso(n.updatedAt),
      last_read_at: iso(n.lastReadAt),
    })),
    api_keys: apiKeys.map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      scopes: k.scopes,
      created_at: iso(k.createdAt),
      expires_at: iso(k.expiresAt),
      last_used_at: iso(k.lastUsedAt),
      revoked_at: iso(k.revokedAt),
    })),
    webhooks: webhooks.map((w) => ({
      id: w.id,
      url: w.url,
      events: w.events,
      description: w.description,
      status: w.status,
      created_at: iso(w.createdAt),
    })),
    reputation_history: history.map((h) => ({
      date: iso(h.createdAt),
      reputation_score: h.reputationScore,
      delta: h.delta,
      reason: h.reason,
      claim_id: h.claimId,
      evidence_id: h.evidenceId,
    })),
  };
}
