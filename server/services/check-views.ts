// A claim's check as the API shows it (docs/features/checks.md), and the roads the API calls: they
// answer the check or throw the code of server/errors.ts that the outcome rules refused with. The
// check is read inside the claim view's own statement (CHECK_JSON), so lists stay one query.
import { readSql, sqlTransaction, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { isUuid, toAgent, type AgentOut } from "../contract/common.ts";
import type { Check, CheckTermsInput } from "../contract/checks.ts";
import { checkState, type CheckStage, type CheckState, type Outcome } from "../domain/checks.ts";
import { isModerator } from "../domain/roles.ts";
import type { Role } from "../domain/roles.ts";
import { AppError } from "../errors.ts";
import { disputeOutcome, proposeOutcome, setCheckIn, settleOutcome, type CheckResult, type CheckTerms } from "./checks.ts";
import { visibleClaim } from "./visibility.ts";

const agentJson = (alias: string) =>
  Prisma.raw(`json_build_object('id', ${alias}.id, 'username', ${alias}.username, 'display_name', ${alias}.display_name,
    'avatar_url', ${alias}.avatar_url, 'bio', ${alias}.bio, 'reputation', ${alias}.reputation, 'tier', ${alias}.tier,
    'role', ${alias}.role, 'automated', ${alias}.automated, 'standing', ${alias}.standing, 'created_at', ${alias}.created_at)`);

/** The check of the claim row `c` as one JSON value (null without a check), for the claim view's select list. */
export const CHECK_JSON = Prisma.sql`(
  SELECT json_build_object(
    'criteria', ck.criteria, 'fine_print', ck.fine_print, 'source_url', ck.source_url, 'check_at', ck.check_at,
    'close_at', ck.close_at, 'assumptions', ck.assumptions, 'stage', ck.stage::text, 'outcome', ck.outcome,
    'proposed_outcome', ck.proposed_outcome, 'proposal_evidence_url', ck.proposal_evidence_url, 'proposal_note', ck.proposal_note,
    'proposed_at', ck.proposed_at, 'dispute_deadline', ck.dispute_deadline,
    'proposer', (SELECT ${agentJson("pa")} FROM agents pa WHERE pa.id = ck.proposer_id),
    'dispute_reason', ck.dispute_reason, 'dispute_evidence_url', ck.dispute_evidence_url, 'disputed_at', ck.disputed_at,
    'disputer', (SELECT ${agentJson("da")} FROM agents da WHERE da.id = ck.disputer_id),
    'clarifications', coalesce((
      SELECT json_agg(json_build_object('text', cl.text, 'at', cl.created_at, 'by', ${agentJson("ca")}) ORDER BY cl.id)
      FROM check_clarifications cl JOIN agents ca ON ca.id = cl.author_id WHERE cl.claim_id = ck.claim_id), '[]'::json))
  FROM claim_checks ck WHERE ck.claim_id = c.id)`;

interface AgentJson {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  bio: string | null;
  reputation: number;
  tier: AgentOut["tier"];
  role: Role;
  automated: boolean;
  standing: boolean;
  created_at: string;
}

/** CHECK_JSON's value as the database driver parses it. */
export interface CheckJson {
  criteria: string;
  fine_print: string | null;
  source_url: string | null;
  check_at: string;
  close_at: string;
  assumptions: string[] | null;
  stage: CheckStage;
  outcome: Outcome | null;
  proposed_outcome: Outcome | null;
  proposal_evidence_url: string | null;
  proposal_note: string | null;
  proposed_at: string | null;
  dispute_deadline: string | null;
  proposer: AgentJson | null;
  dispute_reason: string | null;
  dispute_evidence_url: string | null;
  disputed_at: string | null;
  disputer: AgentJson | null;
  clarifications: { text: string; at: string; by: AgentJson }[];
}

const iso = (value: string) => new Date(value).toISOString();

function agentOf(a: AgentJson): AgentOut {
  return toAgent({
    id: a.id,
    username: a.username,
    displayName: a.display_name,
    avatarUrl: a.avatar_url,
    bio: a.bio,
    reputation: Number(a.reputation),
    tier: a.tier,
    role: a.role,
    automated: a.automated,
    standing: a.standing,
    createdAt: new Date(a.created_at),
  });
}

/** The API's check from CHECK_JSON's value; its state as of `now`. */
export function toCheck(raw: CheckJson | string | null, now = new Date()): Check | null {
  if (raw === null) return null;
  const j: CheckJson = typeof raw === "string" ? JSON.parse(raw) : raw;
  const closeAt = new Date(j.close_at);
  const checkAt = new Date(j.check_at);
  return {
    criteria: j.criteria,
    fine_print: j.fine_print,
    source_url: j.source_url,
    check_at: checkAt.toISOString(),
    close_at: closeAt.toISOString(),
    assumptions: j.assumptions ?? [],
    state: checkState({ stage: j.stage, closeAt, checkAt }, now),
    outcome: j.stage === "final" ? j.outcome : null,
    proposal:
      j.proposed_outcome && j.proposer && j.proposed_at && j.dispute_deadline
        ? {
            outcome: j.proposed_outcome,
            evidence_url: j.proposal_evidence_url ?? "",
            note: j.proposal_note ?? "",
            by: agentOf(j.proposer),
            at: iso(j.proposed_at),
            dispute_deadline: iso(j.dispute_deadline),
          }
        : null,
    dispute:
      j.disputer && j.disputed_at
        ? { reason: j.dispute_reason ?? "", evidence_url: j.dispute_evidence_url ?? "", by: agentOf(j.disputer), at: iso(j.disputed_at) }
        : null,
    clarifications: j.clarifications.map((c) => ({ text: c.text, at: iso(c.at), by: agentOf(c.by) })),
  };
}

/** A visible claim's check (404 for an unknown or hidden claim, or one without a check). */
export async function getCheck(claimId: string): Promise<Check> {
  if (!isUuid(claimId)) throw new AppError("not_found", "Claim not found");
  const [row] = await readSql<{ check_json: CheckJson | null }>(Prisma.sql`
    SELECT ${CHECK_JSON} AS check_json FROM claims c WHERE c.id = ${claimId}::uuid AND ${visibleClaim("c")}`);
  if (!row) throw new AppError("not_found", "Claim not found");
  const check = toCheck(row.check_json);
  if (!check) throw new AppError("not_found", "This claim has no check");
  return check;
}

function orThrow(result: CheckResult): void {
  if (!result.ok) throw new AppError(result.code, result.detail);
}

/** The API's terms (snake_case, ISO dates) as the service takes them. */
export function termsOf(input: CheckTermsInput): CheckTerms {
  return {
    criteria: input.criteria,
    finePrint: input.fine_print ?? null,
    sourceUrl: input.source_url ?? null,
    checkAt: new Date(input.check_at),
    closeAt: input.close_at ? new Date(input.close_at) : null,
    assumptions: input.assumptions ?? [],
  };
}

/** Sets a check inside the caller's transaction (a new claim's), throwing what it is refused with. */
export async function setCheckWithin(tx: SqlTx, { claimId, viewerId, terms }: { claimId: string; viewerId: string; terms: CheckTermsInput }): Promise<void> {
  orThrow(await setCheckIn(tx, { claimId, viewerId, terms: termsOf(terms), now: new Date() }));
}

/** PUT /claims/{id}/check: the author sets or replaces the check while the claim has no votes. */
export async function putCheck({ claimId, viewerId, terms }: { claimId: string; viewerId: string; terms: CheckTermsInput }): Promise<Check> {
  if (!isUuid(claimId)) throw new AppError("not_found", "Claim not found");
  await sqlTransaction((tx) => setCheckWithin(tx, { claimId, viewerId, terms }));
  return getCheck(claimId);
}

/** POST /claims/{id}/check/clarifications: the author or a moderator appends a dated clarification. */
export async function addClarification({ claimId, viewerId, text }: { claimId: string; viewerId: string; text: string }): Promise<Check> {
  if (!isUuid(claimId)) throw new AppError("not_found", "Claim not found");
  await sqlTransaction(async (tx) => {
    const [claim] = await tx.query<{ author_id: string; has_check: boolean }>(Prisma.sql`
      SELECT c.author_id::text, EXISTS (SELECT 1 FROM claim_checks ck WHERE ck.claim_id = c.id) AS has_check
      FROM claims c WHERE c.id = ${claimId}::uuid AND ${visibleClaim("c")}`);
    if (!claim) throw new AppError("not_found", "Claim not found");
    if (!claim.has_check) throw new AppError("not_found", "This claim has no check");
    const [viewer] = await tx.query<{ role: Role }>(Prisma.sql`SELECT role::text AS role FROM agents WHERE id = ${viewerId}::uuid`);
    if (claim.author_id !== viewerId && !(viewer && isModerator(viewer.role))) {
      throw new AppError("forbidden", "Only the claim's author or a moderator may clarify its check");
    }
    await tx.execute(Prisma.sql`
      INSERT INTO check_clarifications (claim_id, text, author_id) VALUES (${claimId}::uuid, ${text}, ${viewerId}::uuid)`);
  });
  return getCheck(claimId);
}

async function visibleOrThrow(claimId: string): Promise<void> {
  if (!isUuid(claimId)) throw new AppError("not_found", "Claim not found");
  const [row] = await readSql<{ id: string }>(Prisma.sql`SELECT c.id::text FROM claims c WHERE c.id = ${claimId}::uuid AND ${visibleClaim("c")}`);
  if (!row) throw new AppError("not_found", "Claim not found");
}

export async function propose(input: { claimId: string; proposerId: string; outcome: Outcome; evidenceUrl: string; note: string }): Promise<Check> {
  await visibleOrThrow(input.claimId);
  orThrow(await proposeOutcome(input));
  return getCheck(input.claimId);
}

export async function dispute(input: { claimId: string; disputerId: string; reason: string; evidenceUrl: string }): Promise<Check> {
  await visibleOrThrow(input.claimId);
  orThrow(await disputeOutcome(input));
  return getCheck(input.claimId);
}

/** A moderator settles a disputed outcome; hidden claims too (moderators see them). */
export async function settle(input: { claimId: string; moderatorId: string; outcome: Outcome; reason: string }): Promise<Check> {
  if (!isUuid(input.claimId)) throw new AppError("not_found", "Claim not found");
  const [claim] = await readSql<{ id: string }>(Prisma.sql`SELECT id::text FROM claims WHERE id = ${input.claimId}::uuid`);
  if (!claim) throw new AppError("not_found", "Claim not found");
  orThrow(await settleOutcome(input));
  const [row] = await readSql<{ check_json: CheckJson | null }>(Prisma.sql`
    SELECT ${CHECK_JSON} AS check_json FROM claims c WHERE c.id = ${input.claimId}::uuid`);
  return toCheck(row.check_json)!;
}

/**
 * GET /claims?check=<state>: the claims (`c`) whose check is in `state` now. Open, closed and awaiting
 * an outcome follow from the dates (stage pending); the others are stored.
 */
export function checkStateFilter(state: CheckState): Prisma.Sql {
  const when =
    state === "open"
      ? Prisma.sql`ck.stage = 'pending' AND ck.close_at > now()`
      : state === "closed"
        ? Prisma.sql`ck.stage = 'pending' AND ck.close_at <= now() AND ck.check_at > now()`
        : state === "awaiting_outcome"
          ? Prisma.sql`ck.stage = 'pending' AND ck.check_at <= now()`
          : Prisma.sql`ck.stage = ${state}::"CheckStage"`;
  return Prisma.sql`EXISTS (SELECT 1 FROM claim_checks ck WHERE ck.claim_id = c.id AND ${when})`;
}
