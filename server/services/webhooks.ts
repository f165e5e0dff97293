// Webhooks (docs/features/following.md): an agent's endpoints, the messages queued for them, and each delivery
// attempt — signed per the Standard Webhooks specification with the `standardwebhooks` package,
// retried on the schedule of server/domain/webhook-retry.ts, logged one row per attempt.
import { randomBytes, randomUUID } from "node:crypto";
import { lookup } from "node:dns/promises";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Prisma } from "../db/generated/client.ts";
import { readSql, sqlTransaction, type SqlTx } from "../db/client.ts";
import { config } from "../config.ts";
import { badRequest, notFound } from "../errors.ts";
import { isUuid } from "../contract/common.ts";
import type { ClaimEventType, WebhookEventType } from "../domain/webhook-events.ts";
import { disableReason, outcomeOf, retryDelayMs, type AttemptOutcome } from "../domain/webhook-retry.ts";
import { ipLiteralHost, isPublicAddress, NOT_PUBLIC, refusedUrlShape } from "../domain/webhook-url.ts";
import type { Claim } from "../contract/claims.ts";
import { ACCEPTED, type Accepted, type DeliveryOut, type WebhookOut } from "../contract/webhooks.ts";
import { enqueueDeliveries, jobQueueReady, type EnqueueDeliveries } from "../queue/client.ts";
import { recordWebhookOutcome, type WebhookOutcome } from "../metrics/index.ts";
import { claimView } from "./claim-views.ts";
import type { StoredEvent } from "./outbox.ts";
import { getEvidence } from "./evidence.ts";
import { getComment } from "./comments.ts";
import { getArgument } from "./arguments.ts";
import { postWebhook, type AttemptResult } from "./webhook-http.ts";
import { activeAgent } from "./visibility.ts";
import { isSealed, openSecret, sealSecret } from "../auth/secret-box.ts";

export const WEBHOOK_NOT_FOUND = "Webhook not found";
export const DELIVERY_NOT_FOUND = "Delivery not found";
export const MAX_WEBHOOKS = 10;

interface WebhookRow {
  id: string;
  agent_id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  secret: string;
  status: "active" | "disabled";
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: Date;
}

const WEBHOOK_COLUMNS = Prisma.sql`id::text AS id, agent_id::text AS agent_id, url, events, description, secret, status,
  disabled_reason, failing_since, created_at`;

function toWebhook(row: WebhookRow): WebhookOut {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at.toISOString(),
  };
}

/** A signing secret as stored: encrypted under WEBHOOK_SECRET_KEY (server/auth/secret-box.ts). */
const sealed = (secret: string) => sealSecret(secret, config().WEBHOOK_SECRET_KEY);

/**
 * Encrypts the signing secrets stored in clear before they were encrypted at rest (a SQL migration
 * cannot: it does not hold the key). Runs at start-up on every instance; each row is rewritten only
 * if it is still the clear value it read, so instances racing each other do no harm. Returns the count.
 */
export async function encryptClearWebhookSecrets(): Promise<number> {
  const clear = await readSql<{ id: string; secret: string }>`
    SELECT id::text AS id, secret FROM webhooks WHERE secret NOT LIKE 'enc1:%'`;
  let done = 0;
  for (const row of clear) {
    if (isSealed(row.secret)) continue;
    done += await sqlTransaction((tx) =>
      tx.execute(Prisma.sql`UPDATE webhooks SET secret = ${sealed(row.secret)} WHERE id = ${row.id}::uuid AND secret = ${row.secret}`),
    );
  }
  return done;
}

/** `whsec_` + base64 of 32 random bytes (the Standard Webhooks secret format). */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * The URL rules: https, and every address the host resolves to public. Checked again on the connection
 * itself at delivery time (server/services/webhook-http.ts). Throws a 400 naming the rule.
 *
 * A name that does not resolve gets the same answer as one that resolves to a private address
 * (docs/security.md#webhook-addresses): two answers would tell anyone which internal names exist.
 */
export async function assertDeliverableUrl(raw: string): Promise<void> {
  const allowPrivate = config().WEBHOOK_ALLOW_PRIVATE;
  const shape = refusedUrlShape(raw, allowPrivate);
  if (shape) throw badRequest(`url: ${shape}`);
  if (allowPrivate) return;
  const url = new URL(raw);
  const literal = ipLiteralHost(url);
  const addresses = literal ? [literal] : await resolvedAddresses(url.hostname);
  // The answer never names what a name resolved to, nor whether it resolved at all.
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) throw badRequest(`url: ${NOT_PUBLIC}`);
}

/** Every address a name resolves to; none when it does not resolve. */
async function resolvedAddresses(hostname: string): Promise<string[]> {
  try {
    return (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return [];
  }
}

async function ownWebhook({ agentId, webhookId }: { agentId: string; webhookId: string }): Promise<WebhookRow> {
  if (!isUuid(webhookId)) throw notFound(WEBHOOK_NOT_FOUND);
  const [row] = await readSql<WebhookRow>`
    SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ${webhookId}::uuid AND agent_id = ${agentId}::uuid`;
  if (!row) throw notFound(WEBHOOK_NOT_FOUND);
  return row;
}

export async function createWebhook(
  agentId: string,
  input: { url: string; events: WebhookEventType[]; description?: string | null },
): Promise<WebhookOut & { secret: string }> {
  await assertDeliverableUrl(input.url);
  const secret = newSecret();
  const row = await sqlTransaction(async (tx) => {
    // The agent's row serialises concurrent creations, so the limit holds under races.
    await tx.query(Prisma.sql`SELECT 1 FROM agents WHERE id = ${agentId}::uuid FOR NO KEY UPDATE`);
    const [{ n }] = await tx.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM webhooks WHERE agent_id = ${agentId}::uuid`);
    if (n >= MAX_WEBHOOKS) throw badRequest(`webhooks: at most ${MAX_WEBHOOKS} endpoints per agent`);
    const [created] = await tx.query<WebhookRow>(Prisma.sql`
      INSERT INTO webhooks (id, agent_id, url, events, description, secret)
      VALUES (gen_random_uuid(), ${agentId}::uuid, ${input.url}, ${input.events}::text[], ${input.description ?? null}, ${sealed(secret)})
      RETURNING ${WEBHOOK_COLUMNS}`);
    return created;
  });
  return { ...toWebhook(row), secret };
}

export async function listWebhooks(agentId: string): Promise<{ webhooks: WebhookOut[] }> {
  const rows = await readSql<WebhookRow>`
    SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE agent_id = ${agentId}::uuid ORDER BY created_at, id`;
  return { webhooks: rows.map(toWebhook) };
}

export async function getWebhook({ agentId, webhookId }: { agentId: string; webhookId: string }): Promise<WebhookOut> {
  return toWebhook(await ownWebhook({ agentId, webhookId }));
}

export async function updateWebhook({
  agentId,
  webhookId,
  changes: input,
}: {
  agentId: string;
  webhookId: string;
  changes: { url?: string; events?: WebhookEventType[]; description?: string | null; status?: "active" };
}): Promise<WebhookOut> {
  const current = await ownWebhook({ agentId, webhookId });
  if (input.url !== undefined) await assertDeliverableUrl(input.url);
  const sets: Prisma.Sql[] = [Prisma.sql`updated_at = now()`];
  if (input.url !== undefined) sets.push(Prisma.sql`url = ${input.url}`);
  if (input.events !== undefined) sets.push(Prisma.sql`events = ${input.events}::text[]`);
  if (input.description !== undefined) sets.push(Prisma.sql`description = ${input.description}`);
  // Re-enabling starts the failure clock afresh.
  if (input.status === "active") sets.push(Prisma.sql`status = 'active', disabled_reason = NULL, failing_since = NULL`);
  const [row] = await sqlTransaction((tx) =>
    tx.query<WebhookRow>(Prisma.sql`
      UPDATE webhooks SET ${Prisma.join(sets, ", ")} WHERE id = ${current.id}::uuid AND agent_id = ${agentId}::uuid
      RETURNING ${WEBHOOK_COLUMNS}`),
  );
  if (!row) throw notFound(WEBHOOK_NOT_FOUND);
  return toWebhook(row);
}

export async function deleteWebhook({ agentId, webhookId }: { agentId: string; webhookId: string }): Promise<void> {
  const current = await ownWebhook({ agentId, webhookId });
  await sqlTransaction((tx) => tx.execute(Prisma.sql`DELETE FROM webhooks WHERE id = ${current.id}::uuid`));
}

/** A new secret; the old one stops signing at once (the answer is the only place the new one is shown). */
export async function rotateSecret({ agentId, webhookId }: { agentId: string; webhookId: string }): Promise<WebhookOut & { secret: string }> {
  const current = await ownWebhook({ agentId, webhookId });
  const secret = newSecret();
  await sqlTransaction((tx) =>
    tx.execute(Prisma.sql`UPDATE webhooks SET secret = ${sealed(secret)}, updated_at = now() WHERE id = ${current.id}::uuid`),
  );
  return { ...toWebhook(current), secret };
}

export async function listDeliveries({
  agentId,
  webhookId,
  page,
}: {
  agentId: string;
  webhookId: string;
  page: { limit: number; offset: number };
}): Promise<{ deliveries: DeliveryOut[]; total: number }> {
  const hook = await ownWebhook({ agentId, webhookId });
  const [rows, [{ total }]] = await Promise.all([
    readSql<{
      id: string;
      event_type: string;
      message_id: string;
      attempt: number;
      status: DeliveryOut["status"];
      response_status: number | null;
      duration_ms: number | null;
      error: string | null;
      created_at: Date;
      next_attempt_at: Date | null;
    }>`
      SELECT id::text AS id, event_type, message_id, attempt, status, response_status, duration_ms, error, created_at, next_attempt_at
      FROM webhook_deliveries WHERE webhook_id = ${hook.id}::uuid
      ORDER BY created_at DESC, attempt DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
    readSql<{ total: number }>`SELECT count(*)::int AS total FROM webhook_deliveries WHERE webhook_id = ${hook.id}::uuid`,
  ]);
  return {
    total,
    deliveries: rows.map((r) => ({
      id: r.id,
      event_type: r.event_type,
      webhook_message_id: r.message_id,
      attempt: r.attempt,
      status: r.status,
      response_status: r.response_status,
      duration_ms: r.duration_ms,
      error: r.error,
      created_at: r.created_at.toISOString(),
      next_attempt_at: r.next_attempt_at?.toISOString() ?? null,
    })),
  };
}

function messageId(): string {
  return `msg_${randomUUID().replace(/-/g, "")}`;
}

/** POST /webhooks/{id}/test: a `ping` message, whatever the endpoint's events and status. */
export async function sendPing({ agentId, webhookId }: { agentId: string; webhookId: string }): Promise<Accepted> {
  const hook = await ownWebhook({ agentId, webhookId });
  const payload = JSON.stringify({
    type: "ping",
    timestamp: new Date().toISOString(),
    data: { webhook_id: hook.id, message: "ping" },
  });
  await jobQueueReady();
  await sqlTransaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(Prisma.sql`
      INSERT INTO webhook_deliveries (id, webhook_id, message_id, event_type, payload, attempt, status)
      VALUES (gen_random_uuid(), ${hook.id}::uuid, ${messageId()}, 'ping', ${payload}, 1, 'pending')
      RETURNING id::text AS id`);
    await enqueueDeliveries(tx, [row.id]);
  });
  return ACCEPTED;
}

/** POST /webhooks/{id}/deliveries/{delivery_id}/redeliver: the same message (same webhook-id), once more. */
export async function redeliver({
  agentId,
  webhookId,
  deliveryId,
}: {
  agentId: string;
  webhookId: string;
  deliveryId: string;
}): Promise<Accepted> {
  const hook = await ownWebhook({ agentId, webhookId });
  if (!isUuid(deliveryId)) throw notFound(DELIVERY_NOT_FOUND);
  await jobQueueReady();
  await sqlTransaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(Prisma.sql`
      INSERT INTO webhook_deliveries (id, webhook_id, message_id, event_type, payload, attempt, status)
      SELECT gen_random_uuid(), d.webhook_id, d.message_id, d.event_type, d.payload,
             (SELECT max(attempt) + 1 FROM webhook_deliveries m WHERE m.message_id = d.message_id), 'pending'
      FROM webhook_deliveries d WHERE d.id = ${deliveryId}::uuid AND d.webhook_id = ${hook.id}::uuid
      RETURNING id::text AS id`);
    if (!row) throw notFound(DELIVERY_NOT_FOUND);
    await enqueueDeliveries(tx, [row.id]);
  });
  return ACCEPTED;
}

// ---- fan-out and delivery (the worker) ----

/**
 * The body of a claim event's message, made once per event: `{type, timestamp, data}`. `claim`: the
 * claim already read (a batch of events reads its claims at once); read here when not given.
 */
export async function eventPayload(event: StoredEvent, claimRead?: Claim | null): Promise<string> {
  const [claim, evidence, comment, argument] = await Promise.all([
    claimRead !== undefined ? claimRead : claimView({ claimId: event.claim_id, viewerId: null }),
    event.evidence_id ? getEvidence({ evidenceId: event.evidence_id, viewerId: null }).catch(() => undefined) : undefined,
    event.comment_id ? getComment({ commentId: event.comment_id }).catch(() => undefined) : undefined,
    event.argument_id ? getArgument({ argumentId: event.argument_id, viewerId: null }).catch(() => undefined) : undefined,
  ]);
  return JSON.stringify({
    type: event.type,
    timestamp: event.created_at.toISOString(),
    data: { claim, actor_id: event.actor_id, ...(evidence ? { evidence } : {}), ...(comment ? { comment } : {}), ...(argument ? { argument } : {}) },
  });
}

/** A claim event's message for some of its recipients (agent ids). */
export interface EventMessage {
  type: ClaimEventType;
  payload: string;
  recipients: string[];
}

/**
 * The first attempt of each message per active endpoint of its recipients that subscribed to the
 * event type, in the fan-out's transaction: one statement for all the messages. Returns the delivery ids.
 */
export async function queueDeliveries(tx: SqlTx, messages: EventMessage[]): Promise<string[]> {
  const pairs = messages.flatMap((m, i) => m.recipients.map((agentId) => ({ agentId, message: i + 1 })));
  if (pairs.length === 0) return [];
  const rows = await tx.query<{ id: string }>(Prisma.sql`
    INSERT INTO webhook_deliveries (id, webhook_id, message_id, event_type, payload, attempt, status)
    SELECT gen_random_uuid(), w.id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), m.type, m.payload, 1, 'pending'
    FROM unnest(${pairs.map((p) => p.agentId)}::uuid[], ${pairs.map((p) => p.message)}::int[]) AS r(agent_id, message)
    JOIN unnest(${messages.map((m) => m.type)}::text[], ${messages.map((m) => m.payload)}::text[]) WITH ORDINALITY AS m(type, payload, n)
      ON m.n = r.message
    JOIN webhooks w ON w.agent_id = r.agent_id AND w.status = 'active' AND m.type = ANY(w.events)
    JOIN agents a ON a.id = w.agent_id AND ${activeAgent("a")}
    RETURNING id::text AS id`);
  return rows.map((r) => r.id);
}

interface PendingDelivery {
  id: string;
  webhook_id: string;
  message_id: string;
  event_type: string;
  payload: string;
  attempt: number;
  status: string;
  url: string;
  secret: string;
  webhook_status: string;
  /** The endpoint's owner is not suspended (a delivery queued before a suspension is not sent). */
  agent_active: boolean;
}

/** Signs and sends one attempt; exported for tests that check the headers. */
export function signedHeaders({ secret, msgId, body, at }: { secret: string; msgId: string; body: string; at: Date }): Record<string, string> {
  const signature = new StandardWebhook(secret).sign(msgId, at, body);
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}

/**
 * Makes delivery attempts (a batch of jobs of the `webhook-deliver` queue, concurrently) and records
 * them: successes together in one statement; a failure on its own (`recordFailure`): the next attempt
 * queued with backoff and jitter, or the endpoint disabled (410, or 3 days of failures). An attempt
 * already recorded is left alone, so a repeated job sends nothing. Returns the results by delivery id.
 */
export async function attemptDeliveries(deliveryIds: string[], enqueue: EnqueueDeliveries): Promise<Map<string, AttemptResult>> {
  const pending = await readSql<PendingDelivery>`
    SELECT d.id::text AS id, d.webhook_id::text AS webhook_id, d.message_id, d.event_type, d.payload, d.attempt, d.status,
           w.url, w.secret, w.status AS webhook_status, ${activeAgent("a")} AS agent_active
    FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN agents a ON a.id = w.agent_id
    WHERE d.id = ANY(${deliveryIds}::uuid[]) AND d.status = 'pending'`;
  const cfg = config();
  const results = new Map<string, AttemptResult>();
  await Promise.all(
    pending.map(async (d) => {
      const result: AttemptResult = !d.agent_active
        ? { status: null, durationMs: 0, error: "account suspended" }
        : d.webhook_status !== "active" && d.event_type !== "ping"
          ? { status: null, durationMs: 0, error: "endpoint disabled" }
          : await postWebhook({
              url: d.url,
              body: d.payload,
              headers: signedHeaders({ secret: openSecret(d.secret, cfg.WEBHOOK_SECRET_KEY), msgId: d.message_id, body: d.payload, at: new Date() }),
              allowPrivate: cfg.WEBHOOK_ALLOW_PRIVATE,
            });
      results.set(d.id, result);
    }),
  );
  const succeeded = pending.filter((d) => outcomeOf(results.get(d.id)!.status).kind === "succeeded");
  if (succeeded.length) {
    // A success schedules nothing: recorded together, without the endpoints' row locks that failures
    // take (many deliveries to one endpoint finish at once, and would otherwise queue on it).
    const recorded = await sqlTransaction((tx) =>
      tx.query<{ id: string }>(Prisma.sql`
        WITH recorded AS (
          UPDATE webhook_deliveries d SET status = 'succeeded', response_status = r.status, duration_ms = r.duration_ms, error = NULL
          FROM unnest(${succeeded.map((d) => d.id)}::uuid[], ${succeeded.map((d) => results.get(d.id)!.status)}::int[],
                      ${succeeded.map((d) => results.get(d.id)!.durationMs)}::int[]) AS r(id, status, duration_ms)
          WHERE d.id = r.id AND d.status = 'pending' RETURNING d.id, d.webhook_id),
        cleared AS (
          UPDATE webhooks SET failing_since = NULL WHERE id IN (SELECT webhook_id FROM recorded) AND failing_since IS NOT NULL)
        SELECT id::text AS id FROM recorded`),
    );
    // After the commit: an attempt counts once, as the delivery log has it (not when another worker recorded it).
    for (const { id } of recorded) recordWebhookOutcome("delivered", results.get(id)!.status);
  }
  await Promise.all(
    pending.map((d) => {
      const result = results.get(d.id)!;
      const outcome = outcomeOf(result.status, result.error);
      return outcome.kind === "failed" ? recordFailure({ delivery: d, result, outcome, enqueue }) : undefined;
    }),
  );
  return results;
}

async function recordFailure({
  delivery: d,
  result,
  outcome,
  enqueue,
}: {
  delivery: PendingDelivery;
  result: AttemptResult;
  outcome: Extract<AttemptOutcome, { kind: "failed" }>;
  enqueue: EnqueueDeliveries;
}): Promise<void> {
  const cfg = config();
  // How the attempt ended, for the metrics; null when another worker had recorded it already.
  const ended = await sqlTransaction(async (tx): Promise<WebhookOutcome | null> => {
    const [hook] = await tx.query<{ failing_since: Date | null; status: string; now: Date }>(Prisma.sql`
      SELECT failing_since, status, now() AS now FROM webhooks WHERE id = ${d.webhook_id}::uuid FOR NO KEY UPDATE`);
    if (!hook) return null;
    const recorded = await tx.execute(Prisma.sql`
      UPDATE webhook_deliveries SET status = 'failed', response_status = ${result.status}::int,
        duration_ms = ${result.durationMs}::int, error = ${outcome.error}
      WHERE id = ${d.id}::uuid AND status = 'pending'`);
    if (recorded === 0) return null;
    if (hook.status !== "active") return "disabled";
    const failingSince = hook.failing_since ?? hook.now;
    const disable = disableReason(outcome, failingSince, hook.now);
    if (disable) {
      await tx.execute(Prisma.sql`
        UPDATE webhooks SET status = 'disabled', disabled_reason = ${disable}, failing_since = ${failingSince}::timestamptz, updated_at = now()
        WHERE id = ${d.webhook_id}::uuid`);
      return "disabled";
    }
    await tx.execute(Prisma.sql`UPDATE webhooks SET failing_since = ${failingSince}::timestamptz WHERE id = ${d.webhook_id}::uuid`);
    const delay = retryDelayMs(d.attempt, cfg.WEBHOOK_RETRY_BASE_MS);
    if (delay === null) return "gave_up";
    const at = new Date(hook.now.getTime() + delay);
    await tx.execute(Prisma.sql`UPDATE webhook_deliveries SET next_attempt_at = ${at}::timestamptz WHERE id = ${d.id}::uuid`);
    const [next] = await tx.query<{ id: string }>(Prisma.sql`
      INSERT INTO webhook_deliveries (id, webhook_id, message_id, event_type, payload, attempt, status, created_at)
      VALUES (gen_random_uuid(), ${d.webhook_id}::uuid, ${d.message_id}, ${d.event_type}, ${d.payload}, ${d.attempt + 1}, 'pending', ${at}::timestamptz)
      ON CONFLICT (message_id, attempt) DO NOTHING
      RETURNING id::text AS id`);
    if (next) await enqueue(tx, [next.id], at);
    return "failed";
  });
  if (ended) recordWebhookOutcome(ended, result.status);
}
