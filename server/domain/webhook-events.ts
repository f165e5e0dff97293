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
