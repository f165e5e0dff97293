// Which events exist and who hears of them (docs/features/following.md). Pure rules, unit-tested.

export const CLAIM_EVENT_TYPES = [
  "claim.voted",
  "claim.evidence_added",
  "claim.commented",
  "claim.resolved",
  "claim.argument_added",
  "claim.outcome_proposed",
  "claim.outcome_disputed",
  "claim.outcome_final",
] as const;
export type ClaimEventType = (typeof CLAIM_EVENT_TYPES)[number];

/** What a webhook can subscribe to: the claim events and `ping` (sent by POST /webhooks/{id}/test). */
export const WEBHOOK_EVENT_TYPES = [...CLAIM_EVENT_TYPES, "ping"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface FollowFlags {
  notify_on_vote: boolean;
  notify_on_evidence: boolean;
  notify_on_comment: boolean;
}

/**
 * Whether a follower hears of an event: never of their own action; the flags filter votes, evidence
 * and comments — a new argument is a reason like evidence, so the evidence flag filters it too
 * (docs/features/arguments.md#notifications); a resolution, and each step of the claim's check toward
 * its outcome (docs/features/checks.md#notifications), always reaches every follower.
 */
export function followerHears(type: ClaimEventType, follow: FollowFlags & { agent_id: string }, actorId: string | null): boolean {
  if (follow.agent_id === actorId) return false;
  switch (type) {
    case "claim.voted":
      return follow.notify_on_vote;
    case "claim.evidence_added":
    case "claim.argument_added":
      return follow.notify_on_evidence;
    case "claim.commented":
      return follow.notify_on_comment;
    case "claim.resolved":
    case "claim.outcome_proposed":
    case "claim.outcome_disputed":
    case "claim.outcome_final":
      return true;
  }
}

/**
 * Whether an event goes to the claim's voters as well as its followers: each step of its check toward
 * an outcome (docs/features/checks.md#notifications) — the outcome scores the voters, so they are the
 * ones who care about it. The voters are the accounts with a vote on the claim now and those whose
 * vote was kept at close_at (scored, though removed after it).
 */
export function reachesVoters(type: ClaimEventType): boolean {
  return type === "claim.outcome_proposed" || type === "claim.outcome_disputed" || type === "claim.outcome_final";
}

/**
 * Whether someone in an event's audience hears of it: a follower as `followerHears` says (whether or
 * not they voted: one thread, one delivery); a voter who does not follow only of the events that reach
 * voters, and never of their own action.
 */
export function audienceHears(
  type: ClaimEventType,
  member: { agent_id: string; follow: FollowFlags | null },
  actorId: string | null,
): boolean {
  if (member.follow) return followerHears(type, { ...member.follow, agent_id: member.agent_id }, actorId);
  return reachesVoters(type) && member.agent_id !== actorId;
}

/** The inbox counter an event increments. */
export function reasonOf(type: ClaimEventType): "votes" | "evidence" | "comments" | "resolved" | "arguments" | "outcomes" {
  switch (type) {
    case "claim.voted":
      return "votes";
    case "claim.evidence_added":
      return "evidence";
    case "claim.commented":
      return "comments";
    case "claim.resolved":
      return "resolved";
    case "claim.argument_added":
      return "arguments";
    case "claim.outcome_proposed":
    case "claim.outcome_disputed":
    case "claim.outcome_final":
      return "outcomes";
  }
}
