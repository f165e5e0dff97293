// Standing (docs/features/consensus.md#standing): which accounts' votes decide claims' consensus
// statuses, kept exact as accounts gain and lose it.
//
// - The rule (domain/standing.ts) is decided from the account's facts under the stored rule
//   (standing_rule, written from the STANDING_* settings by applyStandingRule; a change marks every
//   account). Every vote decides its voter's standing afresh (services/votes.ts) and sorts the vote so.
// - An account whose standing may have changed is marked in standing_pending: by triggers when its
//   facts change (automated, verified, suspended, created_at; an OAuth link), by a vote that finds the
//   stored standing out of date (its fifth vote, a removal below the minimum), and by the job for
//   accounts whose time has come (standing_gains_at: its age, a timed suspension's end).
// - The job (drainStanding) takes a marked account under a lease, decides its standing under the
//   account's advisory lock (the lock every vote of it takes first, so no vote is changing its count
//   meanwhile), stores it, and re-sorts its votes: claims in id order, a batch per transaction, each
//   claim row locked as a vote locks it, each vote moved between the claim's counts exactly once
//   (the move is decided from the vote's own flags under that lock), the status restated, `since`
//   moving only on a change. O(the account's votes). The mark is removed only if nothing marked the
//   account again meanwhile (its token); otherwise another pass follows.
import { readSql, sqlTransaction, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { log, logError } from "../log/logger.ts";
import { announcePagesChanged } from "../queue/live.ts";
import { applyToTally, statusSince, tallyVerdict, type BridgingStatusName, type ConsensusStatus, type SortedVote } from "../domain/consensus.ts";
import {
  OPEN_RULE,
  sameRule,
  sameVerdict,
  standingOf,
  voteClass,
  type StandingRule,
} from "../domain/standing.ts";
import { TALLY_COLUMNS, tallyOf, tallySet, type TallyRow } from "./claim-tally.ts";
import {
  configuredRule,
  factsFromRow,
  reasonsOf,
  REASONS_EXAMINED,
  ruleFromRow,
  STANDING_FACT_SQL,
  type NotCountedReasons,
  type ReasonRow,
  type StandingFactRow,
} from "./standing-facts.ts";

export { configuredRule, factsFromRow, ruleFromRow, type StandingFactRow };

/** First key of the accounts' advisory locks ("stan"); the second is hashtext(agent id). */
const STANDING_LOCK_SPACE = 0x7374616e;
/** Claims re-sorted per transaction. */
const RESORT_BATCH = 100;
/** How long a pass holds an account before another instance may take it (a pass that died). */
const LEASE_SECONDS = 120;

/**
 * One statement on the primary (never a replica: the job must see the votes and marks as they are,
 * and writes).
 */
function onPrimary<T>(query: Prisma.Sql): Promise<T[]> {
  return sqlTransaction((tx) => tx.query<T>(query));
}

/** The statement that takes the account's lock (until the transaction ends). */
export function standingLockSql(agentId: string): Prisma.Sql {
  return Prisma.sql`SELECT pg_advisory_xact_lock(${STANDING_LOCK_SPACE}::int, hashtext(${agentId}::text))`;
}

/** The statement that marks the account for the standing job (a new token: a pass in flight keeps the mark). */
export function markStandingSql(agentId: string): Prisma.Sql {
  return Prisma.sql`INSERT INTO standing_pending (agent_id) VALUES (${agentId}::uuid)
    ON CONFLICT (agent_id) DO UPDATE SET token = gen_random_uuid(), marked_at = now()`;
}

/** The facts of `agents a` and the rule of `standing_rule r` (LEFT JOIN … ON r.id = 1), as StandingFactRow names them. */
export const STANDING_FACT_COLUMNS = Prisma.raw(STANDING_FACT_SQL);

/** The rule the stored standings were decided under. */
export async function storedRule(): Promise<StandingRule> {
  const [row] = await readSql<{ min_age_seconds: number; min_votes: number; require_verified: boolean }>`
    SELECT min_age_seconds, min_votes, require_verified FROM standing_rule WHERE id = 1`;
  return row ? ruleFromRow(row) : OPEN_RULE;
}

/**
 * Stores the configured rule; when it differs from the stored one, every account is marked, so the
 * job decides each account's standing under it and re-sorts its votes (once: the upgrade from the
 * open rule is this). Returns how many accounts were marked.
 */
export async function applyStandingRule(rule: StandingRule = configuredRule()): Promise<number> {
  const marked = await sqlTransaction(async (tx) => {
    const [row] = await tx.query<{ min_age_seconds: number; min_votes: number; require_verified: boolean }>(Prisma.sql`
      SELECT min_age_seconds, min_votes, require_verified FROM standing_rule WHERE id = 1 FOR UPDATE`);
    if (row && sameRule(ruleFromRow(row), rule)) return 0;
    await tx.execute(Prisma.sql`
      INSERT INTO standing_rule (id, min_age_seconds, min_votes, require_verified, applied_at)
      VALUES (1, ${rule.minAgeSeconds}::int, ${rule.minVotes}::int, ${rule.requireVerified}::boolean, now())
      ON CONFLICT (id) DO UPDATE SET min_age_seconds = EXCLUDED.min_age_seconds, min_votes = EXCLUDED.min_votes,
        require_verified = EXCLUDED.require_verified, applied_at = now()`);
    return tx.execute(Prisma.sql`
      INSERT INTO standing_pending (agent_id) SELECT id FROM agents
      ON CONFLICT (agent_id) DO UPDATE SET token = gen_random_uuid(), marked_at = now()`);
  });
  if (marked > 0) log().info({ rule, accounts: marked }, `standing rule changed: ${marked} account(s) to restate`);
  return marked;
}

export type RestateOutcome =
  | { kind: "gone" }
  /** Its row is locked (a suspension, a deletion in progress): try again later. */
  | { kind: "busy" }
  | { kind: "done"; standing: boolean; changed: boolean; claims: number };

/**
 * Decides the account's standing now, stores it, and re-sorts its votes that are sorted otherwise;
 * returns what it did (`claims`: the claims whose counts moved).
 */
export async function restateStanding(agentId: string): Promise<RestateOutcome> {
  const decided = await sqlTransaction(async (tx) => {
    await tx.execute(standingLockSql(agentId));
    // SKIP LOCKED: a transaction holding the row (a suspension, a deletion) may be waiting for this
    // account's lock; waiting for it here would deadlock. The account is tried again later.
    const [row] = await tx.query<StandingFactRow & { votes: number; db_now: Date }>(Prisma.sql`
      SELECT ${STANDING_FACT_COLUMNS},
             (SELECT count(*)::int FROM (SELECT 1 FROM claim_votes o WHERE o.agent_id = a.id
                                         LIMIT (SELECT min_votes FROM standing_rule WHERE id = 1)) n) AS votes,
             now() AS db_now
      FROM agents a LEFT JOIN standing_rule r ON r.id = 1
      WHERE a.id = ${agentId}::uuid
      FOR NO KEY UPDATE OF a SKIP LOCKED`);
    if (!row) {
      const [exists] = await tx.query<{ id: string }>(Prisma.sql`SELECT id::text AS id FROM agents WHERE id = ${agentId}::uuid`);
      return exists ? ({ kind: "busy" } as const) : ({ kind: "gone" } as const);
    }
    const verdict = standingOf({ ...factsFromRow(row), votes: Number(row.votes) }, ruleFromRow(row), row.db_now);
    const changed = !sameVerdict({ standing: Boolean(row.standing), gainsAt: row.standing_gains_at }, verdict);
    if (changed) {
      await tx.execute(Prisma.sql`
        UPDATE agents SET standing = ${verdict.standing}::boolean, standing_gains_at = ${verdict.gainsAt}::timestamptz
        WHERE id = ${agentId}::uuid`);
    }
    return { kind: "decided" as const, standing: verdict.standing, changed };
  });
  if (decided.kind !== "decided") return decided;
  const claims = await resortVotes(agentId);
  return { kind: "done", standing: decided.standing, changed: decided.changed, claims };
}

/**
 * Re-sorts the account's votes whose flags differ from what the account is now (automated, with
 * standing), a batch of claims per transaction; returns how many claims' counts moved.
 */
export async function resortVotes(agentId: string): Promise<number> {
  let moved = 0;
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const batch = await onPrimary<{ claim_id: string }>(Prisma.sql`
      SELECT v.claim_id::text AS claim_id
      FROM claim_votes v JOIN agents a ON a.id = v.agent_id
      WHERE v.agent_id = ${agentId}::uuid AND v.claim_id > ${after}::uuid
        AND (v.automated <> a.automated OR v.counted <> (a.standing AND NOT a.automated))
      ORDER BY v.claim_id LIMIT ${RESORT_BATCH}`);
    if (batch.length === 0) return moved;
    const ids = batch.map((b) => b.claim_id);
    moved += await sqlTransaction((tx) => resortBatch(tx, agentId, ids));
    after = ids[ids.length - 1];
    if (batch.length < RESORT_BATCH) return moved;
  }
}

interface LockedTally extends TallyRow {
  id: string;
  consensus_status: ConsensusStatus;
  consensus_since: Date | null;
  db_now: Date;
}

/**
 * Moves the account's votes on these claims to where the account now sorts them. The claim rows are
 * locked in id order (as bridging writes take several; a vote takes one), then the votes and the
 * account read in a statement of their own, so each move starts from the vote's flags as they are under
 * the lock: a vote moved by another pass meanwhile is not moved twice.
 */
async function resortBatch(tx: SqlTx, agentId: string, claimIds: readonly string[]): Promise<number> {
  const claims = await tx.query<LockedTally>(Prisma.sql`
    SELECT c.id::text AS id, ${TALLY_COLUMNS}, c.consensus_status::text AS consensus_status, c.consensus_since,
           GREATEST(now(), c.consensus_since) AS db_now
    FROM claims c WHERE c.id = ANY(${claimIds}::uuid[]) ORDER BY c.id FOR NO KEY UPDATE`);
  const votes = await tx.query<{
    claim_id: string;
    value: number;
    weight: number;
    automated: boolean;
    counted: boolean;
    agent_automated: boolean;
    agent_standing: boolean;
    bridging_status: BridgingStatusName | null;
  }>(Prisma.sql`
    SELECT v.claim_id::text AS claim_id, v.value, v.weight, v.automated, v.counted,
           a.automated AS agent_automated, a.standing AS agent_standing,
           (SELECT b.status::text FROM claim_bridging b WHERE b.claim_id = v.claim_id) AS bridging_status
    FROM claim_votes v JOIN agents a ON a.id = v.agent_id
    WHERE v.agent_id = ${agentId}::uuid AND v.claim_id = ANY(${claimIds}::uuid[])`);
  const voteOf = new Map(votes.map((v) => [v.claim_id, v]));
  const claimUpdates: Prisma.Sql[] = [];
  const voteUpdates = { claim: [] as string[], automated: [] as boolean[], counted: [] as boolean[] };
  for (const claim of claims) {
    const v = voteOf.get(claim.id);
    if (!v) continue; // removed meanwhile
    const previous: SortedVote = { value: Number(v.value), weight: Number(v.weight), automated: v.automated, counted: v.counted };
    const next: SortedVote = { ...previous, ...voteClass({ automated: v.agent_automated, standing: v.agent_standing }) };
    if (previous.automated === next.automated && previous.counted === next.counted) continue;
    const tally = applyToTally(tallyOf(claim), previous, next);
    const { status } = tallyVerdict(tally, v.bridging_status ?? "insufficient_data");
    const since = statusSince({ status: claim.consensus_status, since: claim.consensus_since }, status, claim.db_now);
    claimUpdates.push(Prisma.sql`
      UPDATE claims SET ${tallySet(tally)}, consensus_status = ${status}::"ConsensusStatus", consensus_since = ${since}::timestamptz,
        updated_at = now()
      WHERE id = ${claim.id}::uuid`);
    voteUpdates.claim.push(claim.id);
    voteUpdates.automated.push(next.automated);
    voteUpdates.counted.push(next.counted);
  }
  if (voteUpdates.claim.length === 0) return 0;
  await tx.execute(Prisma.sql`
    UPDATE claim_votes v SET automated = u.automated, counted = u.counted
    FROM unnest(${voteUpdates.claim}::uuid[], ${voteUpdates.automated}::boolean[], ${voteUpdates.counted}::boolean[]) AS u(claim_id, automated, counted)
    WHERE v.agent_id = ${agentId}::uuid AND v.claim_id = u.claim_id`);
  for (const update of claimUpdates) await tx.execute(update);
  return voteUpdates.claim.length;
}

/**
 * One round of the standing job: marks the accounts whose time has come, then restates up to `limit`
 * marked accounts, each under a lease (instances running it at once take different accounts). Returns
 * how many accounts it restated and how many claims' counts moved.
 */
export async function drainStanding({ limit = 100 }: { limit?: number } = {}): Promise<{ accounts: number; claims: number }> {
  await onPrimary(Prisma.sql`
    INSERT INTO standing_pending (agent_id)
    SELECT id FROM agents WHERE standing_gains_at <= now() ORDER BY standing_gains_at LIMIT ${limit * 10}
    ON CONFLICT (agent_id) DO NOTHING`);
  let accounts = 0;
  let claims = 0;
  for (; accounts < limit; ) {
    const [lease] = await onPrimary<{ agent_id: string; token: string }>(Prisma.sql`
      UPDATE standing_pending p SET leased_until = now() + make_interval(secs => ${LEASE_SECONDS})
      WHERE p.agent_id = (SELECT agent_id FROM standing_pending WHERE leased_until IS NULL OR leased_until < now()
                          ORDER BY marked_at, agent_id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING p.agent_id::text AS agent_id, p.token::text AS token`);
    if (!lease) break;
    let outcome: RestateOutcome;
    try {
      outcome = await restateStanding(lease.agent_id);
    } catch (err) {
      logError("[standing] restating an account failed", err);
      outcome = { kind: "busy" };
    }
    if (outcome.kind === "busy") {
      // Left for a later round: not at once, or this round would take it again.
      await onPrimary(Prisma.sql`UPDATE standing_pending SET leased_until = now() + interval '2 seconds' WHERE agent_id = ${lease.agent_id}::uuid`);
      continue;
    }
    accounts++;
    if (outcome.kind === "done") claims += outcome.claims;
    const [removed] = await onPrimary<{ agent_id: string }>(Prisma.sql`
      DELETE FROM standing_pending WHERE agent_id = ${lease.agent_id}::uuid AND token = ${lease.token}::uuid RETURNING agent_id`);
    // Marked again while it ran: free for the next pass.
    if (!removed) await onPrimary(Prisma.sql`UPDATE standing_pending SET leased_until = NULL WHERE agent_id = ${lease.agent_id}::uuid`);
  }
  // Claims whose counts moved: every instance drops its shared page renders.
  if (claims > 0) await announcePagesChanged().catch((err) => logError("[standing] page cache announcement failed", err));
  return { accounts, claims };
}

/** Rounds of drainStanding until nothing is marked, or a minute has passed (tests, the demo seed). */
export async function drainAllStanding(): Promise<{ accounts: number; claims: number }> {
  const total = { accounts: 0, claims: 0 };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const round = await drainStanding({ limit: 500 });
    total.accounts += round.accounts;
    total.claims += round.claims;
    if (round.accounts > 0) continue;
    const [left] = await onPrimary<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM standing_pending`);
    if (Number(left?.n ?? 0) === 0 || Date.now() > deadline) return total;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The people's votes on the claim that do not count, by the first thing their accounts lack (the
 * claim page says how many and why). Reads at most REASONS_EXAMINED of them.
 */
export async function notCountedReasons({ claimId, people }: { claimId: string; people: number }): Promise<NotCountedReasons> {
  if (people <= 0) return reasonsOf([]); // nothing to read: the common case costs no query
  return reasonsOf(
    await readSql<ReasonRow>(Prisma.sql`
      SELECT ${STANDING_FACT_COLUMNS},
             (SELECT count(*)::int FROM (SELECT 1 FROM claim_votes o WHERE o.agent_id = a.id
                                         LIMIT (SELECT min_votes FROM standing_rule WHERE id = 1)) n) AS votes,
             now() AS db_now
      FROM claim_votes v JOIN agents a ON a.id = v.agent_id LEFT JOIN standing_rule r ON r.id = 1
      WHERE v.claim_id = ${claimId}::uuid AND NOT v.counted AND NOT v.automated
      LIMIT ${REASONS_EXAMINED}`),
  );
}
