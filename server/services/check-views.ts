// A claim's check as the API shows it (docs/features/checks.md), and the roads the API calls: they
// answer the check or throw the code of server/errors.ts that the outcome rules refused with. The
// check is read inside the claim view's own statement (CHECK_JSON), so lists stay one query.
import { readSql, sqlTransaction, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { isUuid } from "../contract/common.ts";
import type { Check, CheckTermsInput } from "../contract/checks.ts";
import type { CheckState, Outcome } from "../domain/checks.ts";
import { isModerator } from "../domain/roles.ts";
import type { Role } from "../domain/roles.ts";
import { AppError } from "../errors.ts";
import { CHECK_JSON_SQL, toCheck, type CheckJson } from "./check-json.ts";
import { disputeOutcome, proposeOutcome, setCheckIn, settleOutcome, type CheckResult, type CheckTerms } from "./checks.ts";
import { visibleClaim } from "./visibility.ts";

/** The check of the claim row `c` as one JSON value (null without a check), for the claim view's select list. */
export const CHECK_JSON = Prisma.raw(CHECK_JSON_SQL);

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
