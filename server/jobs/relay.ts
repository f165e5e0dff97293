// The outbox relay: takes committed events (outbox_events) off the request path, after commit. Events
// of claims with few followers — nearly all — it fans out itself, a batch in one transaction of
// set-based statements (inbox rows, webhook deliveries and their jobs: server/services/notifications.ts);
// an event on a claim with many followers, or a step of a claim's check (it reaches the voters too),
// gets a fan-out job of its own, walked in batches by the worker. Every event also goes to the live channel. Rows are claimed with FOR UPDATE SKIP LOCKED and
// marked in the same transaction, so each event is relayed exactly once whichever instance gets there
// first, and none is lost to a crash: an event whose relay did not commit is still unrelayed and is
// picked up again.
//
// Wake-ups: PostgreSQL NOTIFY from the write's own transaction (instant), plus a slow poll as a safety
// net; on the embedded PGlite (one process), a short poll.
import type PgBoss from "pg-boss";
import { logError } from "../log/logger.ts";
import { Prisma } from "../db/generated/client.ts";
import { dbBackend, sqlTransaction, type SqlTx } from "../db/client.ts";
import { OUTBOX_CHANNEL } from "../services/outbox.ts";
import { fanOutTogether, planFanOut, readEvents } from "../services/notifications.ts";
import { QUEUES, txDb } from "../queue/pg-boss.ts";
import { enqueueDeliveries, jobQueue, wakeWorker } from "../queue/client.ts";
import { liveChannel, liveTransport, listenPostgres, publishLive, type LiveEvent } from "../queue/live.ts";
import type { RoundContext } from "./runner.ts";

const BATCH = 200;

export interface Relayed {
  events: number;
  /** Webhook deliveries queued. */
  deliveries: number;
  /** Fan-out jobs queued (events of claims with many followers, and outcome steps). */
  fanouts: number;
}

/** Relays one batch; returns what it did (`events` 0: nothing was waiting). */
export async function relayOnce(
  boss: PgBoss,
  enqueueDeliveries: (tx: SqlTx, deliveryIds: string[]) => Promise<void>,
): Promise<Relayed> {
  const pending = await readEvents(Prisma.sql`e.relayed_at IS NULL`, BATCH);
  if (pending.length === 0) return { events: 0, deliveries: 0, fanouts: 0 };
  // The webhook bodies are read before the transaction.
  const plan = await planFanOut(pending);
  const transport = liveTransport();
  const relayed = await sqlTransaction(async (tx) => {
    // Another instance's relay may hold some of them: it relays those.
    const rows = await tx.query<{ id: string }>(Prisma.sql`
      SELECT id::text AS id FROM outbox_events
      WHERE id = ANY(${pending.map((e) => e.id)}::bigint[]) AND relayed_at IS NULL ORDER BY id FOR UPDATE SKIP LOCKED`);
    const locked = new Set(rows.map((r) => r.id));
    if (locked.size === 0) return { live: [], deliveries: 0, fanouts: 0 };
    const together = await fanOutTogether(tx, { plan, locked, enqueue: enqueueDeliveries });
    const alone = [...plan.alone.filter((e) => locked.has(e.id)).map((e) => e.id), ...together.leftOver];
    if (alone.length) {
      await boss.insert(
        alone.map((id) => ({ name: QUEUES.fanout, data: { eventId: id } })),
        { db: txDb(tx) },
      );
    }
    const ids = [...locked];
    const live: LiveEvent[] = pending.filter((e) => locked.has(e.id)).map((e) => ({ claim_id: e.claim_id, type: e.type, event_id: e.id }));
    await tx.execute(Prisma.sql`UPDATE outbox_events SET relayed_at = now() WHERE id = ANY(${ids}::bigint[])`);
    if (transport === "postgres") {
      // Delivered to every instance's LISTEN connection when this transaction commits.
      await tx.query(Prisma.sql`
        SELECT pg_notify(${liveChannel()}, e) FROM unnest(${live.map((e) => JSON.stringify(e))}::text[]) AS e`);
    }
    return { live, deliveries: together.deliveries.length, fanouts: alone.length };
  });
  if (transport !== "postgres") await publishLive(relayed.live).catch((err) => logError("[relay] live publish failed", err));
  // None when another instance holds them all: it goes on with what follows, this one waits to be woken.
  return { events: relayed.live.length, deliveries: relayed.deliveries, fanouts: relayed.fanouts };
}

/** How often the relay looks without being woken: a safety net on PostgreSQL, the only wake-up on PGlite. */
export function relayPollMs(): number {
  return dbBackend() === "pglite" ? 200 : 1000;
}

/** PostgreSQL: a NOTIFY from the write's transaction wakes the relay, and so does every (re)connection (it may have missed some). */
export function relayWakeUp(wake: () => void): { close(): Promise<void> } | null {
  return dbBackend() === "postgres" ? listenPostgres(OUTBOX_CHANNEL, wake, wake) : null;
}

/**
 * One round: relays batches back to back while events wait (a storm of writes), and wakes this
 * process's workers for the jobs it queued, after commit (they find them at once, not at their next poll).
 */
export async function relayRound(ctx: RoundContext): Promise<void> {
  const queue = jobQueue();
  await queue.ready;
  while (!ctx.stopping()) {
    const r = await relayOnce(queue.boss, enqueueDeliveries);
    if (r.events === 0) break;
    if (r.deliveries) wakeWorker(QUEUES.deliver);
    if (r.fanouts) wakeWorker(QUEUES.fanout);
  }
}
