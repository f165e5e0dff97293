// Checks against the world (docs/features/checks.md): how and when a claim is checked, and the life of
// its outcome — open → closed → awaiting_outcome → proposed → final, or proposed → disputed → final —
// with bonds in reputation. Pure: the services gather the facts, store what these decide and move
// the reputation they say.

export const OUTCOMES = ["true", "false", "ambiguous", "annulled"] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const CHECK_STATES = ["open", "closed", "awaiting_outcome", "proposed", "disputed", "final"] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** What is stored beyond the dates: pending is open, closed or awaiting an outcome by time alone. */
export type CheckStage = "pending" | "proposed" | "disputed" | "final";

export const CRITERIA_MIN = 10;
export const CRITERIA_MAX = 2000;
export const ASSUMPTIONS_MAX = 5;

export interface CheckDates {
  stage: CheckStage;
  /** Votes cast before it are scored. */
  closeAt: Date;
  /** After it an outcome may be proposed. */
  checkAt: Date;
}

/** The state a check is in at `now`. */
export function checkState({ stage, closeAt, checkAt }: CheckDates, now: Date): CheckState {
  if (stage !== "pending") return stage;
  if (now < closeAt) return "open";
  if (now < checkAt) return "closed";
  return "awaiting_outcome";
}

/** Why a check's dates are refused, or null: check_at in the future, close_at (default check_at) not after it. */
export function checkDatesProblem({ closeAt, checkAt }: { closeAt: Date; checkAt: Date }, now: Date): string | null {
  if (checkAt <= now) return "check_at: must be in the future";
  if (closeAt > checkAt) return "close_at: must not be after check_at";
  return null;
}

/** A check's terms may be set or replaced by the claim's author while the claim has no votes. */
export function termsEditable({ viewerIsAuthor, voteCount }: { viewerIsAuthor: boolean; voteCount: number }): "ok" | "forbidden" | "check_immutable" {
  if (!viewerIsAuthor) return "forbidden";
  return voteCount > 0 ? "check_immutable" : "ok";
}

/** What may stop an account proposing or disputing: the codes a program acts on (server/errors.ts). */
export type OutcomeRefusal = "outcome_not_open" | "insufficient_standing" | "insufficient_reputation" | "own_proposal";

export interface Proposer {
  standing: boolean;
  reputation: number;
}

/**
 * May this account propose an outcome now? The check must be awaiting one (after check_at, no
 * proposal yet); the account needs standing and `minReputation`.
 */
export function proposalRefusal({ state, proposer, minReputation }: { state: CheckState; proposer: Proposer; minReputation: number }): OutcomeRefusal | null {
  if (state !== "awaiting_outcome") return "outcome_not_open";
  if (!proposer.standing) return "insufficient_standing";
  if (proposer.reputation < minReputation) return "insufficient_reputation";
  return null;
}

/**
 * May this account dispute the proposal now? Only a proposed outcome inside its window, by another
 * account with standing (the same bond is staked; one dispute per claim).
 */
export function disputeRefusal({ stage, disputeDeadline, now, disputer, proposerId }: {
  stage: CheckStage;
  disputeDeadline: Date | null;
  now: Date;
  disputer: { id: string; standing: boolean };
  proposerId: string | null;
}): OutcomeRefusal | null {
  if (stage !== "proposed" || disputeDeadline === null || now >= disputeDeadline) return "outcome_not_open";
  if (disputer.id === proposerId) return "own_proposal";
  if (!disputer.standing) return "insufficient_standing";
  return null;
}

/** When a proposal made at `at` becomes final if no one disputes it. */
export function disputeDeadline(at: Date, disputeSeconds: number): Date {
  return new Date(at.getTime() + disputeSeconds * 1000);
}

/** Is a proposal's window over, so the finalising job makes it final? */
export function finalisable({ stage, disputeDeadline }: { stage: CheckStage; disputeDeadline: Date | null }, now: Date): boolean {
  return stage === "proposed" && disputeDeadline !== null && disputeDeadline <= now;
}

/** The reward an undisputed proposal earns beside its bond. */
export const UNDISPUTED_REWARD = 1;

export interface BondPayout {
  /** Reputation credited to the proposer when the outcome becomes final (their bond was taken when they proposed). */
  proposer: number;
  /** … and to the disputer (0 when there was no dispute). */
  disputer: number;
}

/**
 * Where the bonds go when an outcome becomes final. Each side's bond was taken when it staked.
 * Undisputed: the proposer's bond comes back with 1 more. Disputed and settled: the side the
 * moderator's outcome proves right gets its own bond and the other side's; the proposer is right
 * exactly when the settled outcome is the proposed one.
 */
export function bondPayout({ bond, proposed, final, disputed }: { bond: number; proposed: Outcome; final: Outcome; disputed: boolean }): BondPayout {
  if (!disputed) return { proposer: bond + UNDISPUTED_REWARD, disputer: 0 };
  return proposed === final ? { proposer: 2 * bond, disputer: 0 } : { proposer: 0, disputer: 2 * bond };
}
