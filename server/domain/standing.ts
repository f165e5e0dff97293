// Standing (docs/features/consensus.md#standing): whether an account's claim votes decide a claim's
// consensus status. An account has it when it is not automated, not suspended, its email is verified
// or it signed in through an OAuth provider, it is old enough and it has enough current votes. Pure:
// the services gather the facts, store what this decides and move the vote counts that follow.
import { isSuspended } from "./suspension.ts";

export interface StandingRule {
  /** How old an account must be, in seconds (STANDING_MIN_AGE_SECONDS). */
  minAgeSeconds: number;
  /** How many current claim votes it must have (STANDING_MIN_VOTES); the vote being cast counts. */
  minVotes: number;
  /** Whether a verified email or an OAuth sign-in is required (STANDING_REQUIRE_VERIFIED). */
  requireVerified: boolean;
}

/** The rule under which every account that is not automated (nor suspended) has standing. */
export const OPEN_RULE: StandingRule = Object.freeze({ minAgeSeconds: 0, minVotes: 0, requireVerified: false });

export function sameRule(a: StandingRule, b: StandingRule): boolean {
  return a.minAgeSeconds === b.minAgeSeconds && a.minVotes === b.minVotes && a.requireVerified === b.requireVerified;
}

/** What standing is decided from. */
export interface StandingFacts {
  automated: boolean;
  suspendedAt: Date | null;
  /** When a suspension ends by itself; null = until lifted. */
  suspendedUntil: Date | null;
  /** A verified email, or an account linked to an OAuth provider. */
  verified: boolean;
  createdAt: Date;
  /** Current claim votes (a count capped at the rule's minimum is enough). */
  votes: number;
}

/** What keeps an account from standing, in the order the page names the first one. */
export const SHORTFALLS = ["automated", "suspended", "unverified", "too_new", "too_few_votes"] as const;
export type Shortfall = (typeof SHORTFALLS)[number];

export interface StandingVerdict {
  standing: boolean;
  /** Everything that keeps it from standing now (empty with standing). */
  shortfalls: Shortfall[];
  /**
   * When time alone gives it standing (its age reached, a timed suspension over), if nothing else
   * is missing; null otherwise. The standing job looks for accounts whose time has come.
   */
  gainsAt: Date | null;
}

export function standingOf(facts: StandingFacts, rule: StandingRule, now: Date): StandingVerdict {
  const shortfalls: Shortfall[] = [];
  const suspended = isSuspended(facts, now);
  // No age asked is none to wait for (a stored created_at is rounded to the millisecond and may be after now).
  const ofAge = rule.minAgeSeconds > 0 ? new Date(facts.createdAt.getTime() + rule.minAgeSeconds * 1000) : null;
  if (facts.automated) shortfalls.push("automated");
  if (suspended) shortfalls.push("suspended");
  if (rule.requireVerified && !facts.verified) shortfalls.push("unverified");
  if (ofAge && ofAge > now) shortfalls.push("too_new");
  if (facts.votes < rule.minVotes) shortfalls.push("too_few_votes");
  if (shortfalls.length === 0) return { standing: true, shortfalls, gainsAt: null };
  // Only the age and a suspension with an end pass by themselves.
  const waitsOnTime = shortfalls.every((s) => s === "too_new" || (s === "suspended" && facts.suspendedUntil !== null));
  if (!waitsOnTime) return { standing: false, shortfalls, gainsAt: null };
  const times = [shortfalls.includes("too_new") ? ofAge!.getTime() : 0, suspended ? facts.suspendedUntil!.getTime() : 0];
  return { standing: false, shortfalls, gainsAt: new Date(Math.max(...times)) };
}

/** Whether a stored verdict (standing, gains_at) still says what a fresh one says. */
export function sameVerdict(stored: { standing: boolean; gainsAt: Date | null }, fresh: StandingVerdict): boolean {
  return stored.standing === fresh.standing && (stored.gainsAt?.getTime() ?? null) === (fresh.gainsAt?.getTime() ?? null);
}

/**
 * How a vote is sorted into a claim's counts: `automated` (the agents' view, left out of
 * gradient_people) and `counted` (it decides the status: its account had standing). A vote is never
 * both.
 */
export interface VoteClass {
  automated: boolean;
  counted: boolean;
}

export function voteClass(account: { automated: boolean; standing: boolean }): VoteClass {
  return { automated: account.automated, counted: account.standing && !account.automated };
}
