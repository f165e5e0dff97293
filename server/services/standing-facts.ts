// What standing is decided from, as rows read it (docs/features/consensus.md#standing): the account's
// facts and the stored rule as SQL columns, and how a row becomes the rule's input. No database access
// here: the services read the rows (services/standing.ts, votes.ts, invariants.ts), and the benchmark's
// yardstick reads the same columns.
import { config } from "../config.ts";
import { SHORTFALLS, standingOf, type Shortfall, type StandingFacts, type StandingRule } from "../domain/standing.ts";

/** The facts of `agents a` and the rule of `standing_rule r` (LEFT JOIN … ON r.id = 1), as StandingFactRow names them. */
export const STANDING_FACT_SQL = `a.automated, a.standing, a.standing_gains_at, a.created_at, a.suspended_at, a.suspended_until,
   (a.email_verified IS NOT NULL OR EXISTS (SELECT 1 FROM accounts x WHERE x.agent_id = a.id)) AS verified,
   r.min_age_seconds, r.min_votes, r.require_verified`;

export interface StandingFactRow {
  automated: boolean;
  standing: boolean;
  standing_gains_at: Date | null;
  created_at: Date;
  suspended_at: Date | null;
  suspended_until: Date | null;
  verified: boolean;
  min_age_seconds: number | null;
  min_votes: number | null;
  require_verified: boolean | null;
}

export function factsFromRow(row: StandingFactRow): Omit<StandingFacts, "votes"> {
  return {
    automated: Boolean(row.automated),
    suspendedAt: row.suspended_at,
    suspendedUntil: row.suspended_until,
    verified: Boolean(row.verified),
    createdAt: row.created_at,
  };
}

/** The stored rule (the configured one if the row is missing). */
export function ruleFromRow(row: Pick<StandingFactRow, "min_age_seconds" | "min_votes" | "require_verified">): StandingRule {
  if (row.min_age_seconds === null || row.min_votes === null || row.require_verified === null) return configuredRule();
  return { minAgeSeconds: Number(row.min_age_seconds), minVotes: Number(row.min_votes), requireVerified: Boolean(row.require_verified) };
}

/** The rule the STANDING_* settings give. */
export function configuredRule(): StandingRule {
  const c = config();
  return { minAgeSeconds: c.STANDING_MIN_AGE_SECONDS, minVotes: c.STANDING_MIN_VOTES, requireVerified: c.STANDING_REQUIRE_VERIFIED };
}

/** Why the people's votes on a claim that do not count do not (at most this many are looked at). */
export const REASONS_EXAMINED = 1000;

export type NotCountedReasons = Record<Exclude<Shortfall, "automated">, number> & {
  /** Accounts that have standing now, whose votes the standing job is about to count. */
  restating: number;
};

/** A not-counted vote's voter: the facts, its votes counted up to the rule's minimum, the database's now. */
export type ReasonRow = StandingFactRow & { votes: number; db_now: Date };

/** The voters' rows counted by the first thing each account lacks. */
export function reasonsOf(rows: ReasonRow[]): NotCountedReasons {
  const reasons: NotCountedReasons = { suspended: 0, unverified: 0, too_new: 0, too_few_votes: 0, restating: 0 };
  for (const row of rows) {
    const { shortfalls } = standingOf({ ...factsFromRow(row), votes: Number(row.votes) }, ruleFromRow(row), row.db_now);
    const first = SHORTFALLS.find((s) => s !== "automated" && shortfalls.includes(s)) as Exclude<Shortfall, "automated"> | undefined;
    if (first) reasons[first]++;
    else reasons.restating++;
  }
  return reasons;
}
