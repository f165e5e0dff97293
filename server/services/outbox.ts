// The transactional outbox (docs/features/following.md). A write that causes an event records it here, inside its own
// transaction: the event commits with the write or not at all, so an acknowledged write never loses its
// update, whatever happens to the process afterwards (kill -9 included). Everything else — the inbox,
// webhooks, the live page — happens after commit, off the request path: the relay (server/jobs/relay.ts)
// picks new rows up and hands them to the job queue and the live channel.
import { Prisma } from "../db/generated/client.ts";
import type { SqlTx } from "../db/client.ts";
import type { ClaimEventType } from "../domain/webhook-events.ts";

/** The database channel the relay LISTENs on (PostgreSQL); NOTIFY is delivered only at commit. */
export const OUTBOX_CHANNEL = "claims_outbox";

export interface RecordedEvent {
  type: ClaimEventType;
  claimId: string;
  /** Who acted; null for what no one did alone (a resolution): then every follower is told. */
  actorId: string | null;
  evidenceId?: string;
  commentId?: string;
  argumentId?: string;
}

/** An outbox row as the relay, the fan-out and the webhook payloads read it. */
export interface StoredEvent {
  type: ClaimEventType;
  claim_id: string;
  actor_id: string | null;
  evidence_id: string | null;
  comment_id: string | null;
  argument_id: string | null;
  created_at: Date;
}

/** Either transaction the services use: the driver's (`sqlTransaction`) or Prisma's interactive one. */
export type AnyTx = SqlTx | Prisma.TransactionClient;

/**
 * The insert of one event, for a write that records its event in a CTE named `ev` of its own statement
 * (the vote: one round trip less while the claim row is locked), ending with `notifyRelay`.
 */
export function eventInsert(e: RecordedEvent): Prisma.Sql {
  return Prisma.sql`
      INSERT INTO outbox_events (type, claim_id, actor_id, evidence_id, comment_id, argument_id)
      VALUES (${e.type}, ${e.claimId}::uuid, ${e.actorId}::uuid, ${e.evidenceId ?? null}::uuid, ${e.commentId ?? null}::uuid,
              ${e.argumentId ?? null}::uuid)
      RETURNING id`;
}

/** The statement's last part after a CTE `ev` holding eventInsert(): wakes the relay at commit. */
export const notifyRelay = Prisma.sql`SELECT pg_notify(${OUTBOX_CHANNEL}, '') FROM ev`;

function insertEvent(e: RecordedEvent): Prisma.Sql {
  return Prisma.sql`WITH ev AS (${eventInsert(e)}) ${notifyRelay}`;
}

/** Records one event in the caller's transaction (one round trip, insert and wake-up together). */
export async function recordEvent(tx: AnyTx, event: RecordedEvent): Promise<void> {
  const sql = insertEvent(event);
  if ("$executeRaw" in tx) await tx.$executeRaw(sql);
  else await tx.execute(sql, { prepared: true });
}
