// The inbox (docs/features/following.md) and the fan-out that fills it. One notification per (recipient, claim), like
// a mail thread: each event on the claim adds to its counters and marks it unread again.
//
// Fan-out runs in the job queue (server/jobs/index.ts), never in the request that wrote the event. The
// events of claims with few followers go out many to a transaction (`fanOutEvents`); a claim with many
// followers is walked in batches by agent id, each committing together with the event's cursor, so a
// retried job resumes after the last committed batch and counts nothing twice. The steps of a check
// toward its outcome reach the claim's voters too (docs/features/checks.md#notifications): they are
// always walked that way, over the followers and voters together.
import { Prisma } from "../db/generated/client.ts";
import { readSql, sqlTransaction, type SqlTx } from "../db/client.ts";
import { notFound } from "../errors.ts";
import { isUuid, toAgent, type AgentRow } from "../contract/common.ts";
import type { Claim } from "../contract/claims.ts";
import type { NotificationList, NotificationOut } from "../contract/notifications.ts";
import { audienceHears, followerHears, reachesVoters, reasonOf } from "../domain/webhook-events.ts";
import { claimViews } from "./claim-views.ts";
import { eventPayload, queueDeliveries } from "./webhooks.ts";
import type { StoredEvent } from "./outbox.ts";
import { activeAgent, visibleClaim, visibleComment, visibleEvidence } from "./visibility.ts";

export const NOTIFICATION_NOT_FOUND = "Notification not found";
/** Followers (or followers and voters) per fan-out transaction. */
export const FANOUT_BATCH = 500;

interface EventRow extends StoredEvent {
  id: string;
  fanout_cursor: string | null;
  fanned_out_at: Date | null;
}

interface FollowerRow {
  agent_id: string;
  notify_on_vote: boolean;
  notify_on_evidence: boolean;
  notify_on_comment: boolean;
}

/** Someone in a batch of an event's audience: a follower (with the follow's flags) or a voter who does not follow. */
interface MemberRow extends FollowerRow {
  follows: boolean;
  active: boolean;
}

export interface FanoutResult {
  recipients: number;
  deliveries: string[];
}

/** One event's place in a recipient's thread: the inbox row it adds to. */
interface InboxEntry {
  agentId: string;
  claimId: string;
  reason: ReturnType<typeof reasonOf>;
  eventId: string;
  /** Who acted (null: no one alone, a resolution). */
  actorId: string | null;
}

const EVENT_COLUMNS = Prisma.sql`e.id::text AS id, e.type, e.claim_id::text AS claim_id, e.actor_id::text AS actor_id,
  e.evidence_id::text AS evidence_id, e.comment_id::text AS comment_id, e.argument_id::text AS argument_id, e.created_at, e.fanout_cursor::text AS fanout_cursor,
  e.fanned_out_at`;

/** Whether the event's claim (and its evidence or comment, if any) is still visible: the one rule of visibility.ts. */
const eventVisible = Prisma.sql`(EXISTS (SELECT 1 FROM claims c WHERE c.id = e.claim_id AND ${visibleClaim("c")})
  AND (e.evidence_id IS NULL OR EXISTS (SELECT 1 FROM evidence ev WHERE ev.id = e.evidence_id AND ${visibleEvidence("ev")}))
  AND (e.comment_id IS NULL OR EXISTS (SELECT 1 FROM comments m WHERE m.id = e.comment_id AND ${visibleComment("m")}))
  AND (e.argument_id IS NULL OR EXISTS (SELECT 1 FROM arguments ar JOIN claims ch ON ch.id = ar.child_claim_id
                                        WHERE ar.id = e.argument_id AND ${visibleClaim("ch")})))`;

/** An outbox event with what its fan-out needs to know before it starts. */
export interface PendingEvent extends EventRow {
  visible: boolean;
  /** Followers of its claim, counted up to FANOUT_BATCH + 1. */
  followers: number;
  /** Whether any follower has an active endpoint for its type (then its webhook body is needed). */
  hooked: boolean;
}

/**
 * Outbox events by a condition on `e` (the relay's unrelayed ones, a job's ids), oldest first. What
 * the fan-out needs to know of their claims (followers, the event types hooked by a follower's webhook)
 * is read once per claim: a burst of votes on one much-followed claim does not count its followers
 * once per vote.
 */
export function readEvents(where: Prisma.Sql, limit: number): Promise<PendingEvent[]> {
  return readSql<PendingEvent>`
    WITH e AS MATERIALIZED (SELECT * FROM outbox_events e WHERE ${where} ORDER BY e.id LIMIT ${limit}),
    claim AS (
      SELECT c.claim_id,
        (SELECT count(*)::int FROM (SELECT 1 FROM follows f WHERE f.claim_id = c.claim_id LIMIT ${FANOUT_BATCH + 1}) x) AS followers,
        ARRAY(SELECT DISTINCT t FROM follows f JOIN webhooks w ON w.agent_id = f.agent_id AND w.status = 'active', unnest(w.events) AS t
              WHERE f.claim_id = c.claim_id) AS hooked_types
      FROM (SELECT DISTINCT claim_id FROM e) c)
    SELECT ${EVENT_COLUMNS}, ${eventVisible} AS visible, claim.followers, e.type = ANY(claim.hooked_types) AS hooked
    FROM e JOIN claim ON claim.claim_id = e.claim_id ORDER BY e.id`;
}

/** A batch of events read for fan-out, with the webhook bodies of those that go out together. */
export interface FanoutPlan {
  /** Events that go out together in one transaction (`fanOutTogether`). */
  together: PendingEvent[];
  /**
   * Events on claims with many followers, events that reach voters too (a check's outcome steps, a few
   * in a claim's life), or left half done by a crash: walked claim by claim (`fanOutClaimEvents`).
   */
  alone: PendingEvent[];
  payloads: Map<string, string>;
}

/** Splits the batch and makes the webhook bodies, before any transaction (they are reads of their own). */
export async function planFanOut(events: PendingEvent[]): Promise<FanoutPlan> {
  const alone = events.filter((e) => e.visible && (e.followers > FANOUT_BATCH || e.fanout_cursor !== null || reachesVoters(e.type)));
  const together = events.filter((e) => !alone.includes(e));
  const payloads = await eventPayloads(together.filter((e) => e.visible && e.hooked));
  return { together, alone, payloads };
}

/**
 * Fans out, in the caller's transaction, the events of `plan.together` that the caller has locked:
 * set-based statements for the whole batch (the inbox rows in one upsert, the webhook deliveries and
 * their jobs in one insert each), so the cost per event is a share of a handful of statements, not a
 * transaction of its own. Marks them fanned out. Returns what it queued, and the ids of events it had
 * to leave to `fanOutEvent` (a webhook created after their bodies were made).
 */
export async function fanOutTogether(
  tx: SqlTx,
  {
    plan,
    locked,
    enqueue,
  }: {
    plan: FanoutPlan;
    /** The ids of the plan's events this transaction holds. */
    locked: Set<string>;
    enqueue: (tx: SqlTx, deliveryIds: string[]) => Promise<void>;
  },
): Promise<FanoutResult & { leftOver: string[] }> {
  const batch = plan.together.filter((e) => locked.has(e.id));
  // Content taken down before its event went out (docs/features/moderation.md) reaches no inbox and no webhook.
  const visible = batch.filter((e) => e.visible);
  const followers = visible.length === 0 ? [] : await tx.query<FollowerRow & { event_id: string; hooked: boolean }>(Prisma.sql`
    SELECT e.id::text AS event_id, f.agent_id::text AS agent_id, f.notify_on_vote, f.notify_on_evidence, f.notify_on_comment,
      EXISTS (SELECT 1 FROM webhooks w WHERE w.agent_id = f.agent_id AND w.status = 'active' AND e.type = ANY(w.events)) AS hooked
    FROM outbox_events e JOIN follows f ON f.claim_id = e.claim_id JOIN agents fa ON fa.id = f.agent_id
    WHERE e.id = ANY(${visible.map((e) => e.id)}::bigint[]) AND ${activeAgent("fa")}`);
  const byId = new Map(visible.map((e) => [e.id, e]));
  const heard = followers.filter((f) => {
    const event = byId.get(f.event_id)!;
    return followerHears(event.type, f, event.actor_id);
  });
  const unready = new Set(heard.filter((f) => f.hooked && !plan.payloads.has(f.event_id)).map((f) => f.event_id));
  const ready = heard.filter((f) => !unready.has(f.event_id));
  await addToInbox(
    tx,
    ready.map((f) => {
      const event = byId.get(f.event_id)!;
      return { agentId: f.agent_id, claimId: event.claim_id, reason: reasonOf(event.type), eventId: event.id, actorId: event.actor_id };
    }),
  );
  const messages = visible
    .filter((e) => plan.payloads.has(e.id) && !unready.has(e.id))
    .map((e) => ({
      type: e.type,
      payload: plan.payloads.get(e.id)!,
      recipients: ready.filter((f) => f.event_id === e.id && f.hooked).map((f) => f.agent_id),
    }))
    .filter((m) => m.recipients.length > 0);
  const deliveries = await queueDeliveries(tx, messages);
  if (deliveries.length) await enqueue(tx, deliveries);
  const done = batch.filter((e) => !unready.has(e.id)).map((e) => e.id);
  if (done.length) await tx.execute(Prisma.sql`UPDATE outbox_events SET fanned_out_at = now() WHERE id = ANY(${done}::bigint[])`);
  return { recipients: ready.length, deliveries, leftOver: [...unready] };
}

/**
 * Fans a batch of outbox events out (the fan-out worker's batch of jobs): those of claims with few
 * followers together in one transaction, the others claim by claim (`fanOutClaimEvents`). Safe to run twice,
 * and concurrently.
 */
export async function fanOutEvents(
  eventIds: string[],
  enqueue: (tx: SqlTx, deliveryIds: string[]) => Promise<void>,
): Promise<FanoutResult> {
  const result: FanoutResult = { recipients: 0, deliveries: [] };
  if (eventIds.length === 0) return result;
  const plan = await planFanOut(await readEvents(Prisma.sql`e.id = ANY(${eventIds}::bigint[]) AND e.fanned_out_at IS NULL`, eventIds.length));
  let leftOver: string[] = [];
  if (plan.together.length) {
    const together = await sqlTransaction(async (tx) => {
      // A duplicate job (a retry after a crash) running now holds its events: this run leaves them to it.
      const locked = await tx.query<{ id: string }>(Prisma.sql`
        SELECT id::text AS id FROM outbox_events WHERE id = ANY(${plan.together.map((e) => e.id)}::bigint[]) AND fanned_out_at IS NULL
        ORDER BY id FOR UPDATE SKIP LOCKED`);
      return fanOutTogether(tx, { plan, locked: new Set(locked.map((r) => r.id)), enqueue });
    });
    result.recipients += together.recipients;
    result.deliveries.push(...together.deliveries);
    leftOver = together.leftOver;
  }
  // Bulk work, one claim at a time, taking its turn with the requests for the database (the fan-out
  // worker runs it on their pool). The events of one claim walk its followers together: a storm of
  // votes on a much-followed claim costs one pass over its followers per batch of jobs, not one per vote.
  const left = new Set(leftOver);
  const groups = new Map<string, PendingEvent[]>();
  for (const event of plan.alone) {
    if (left.has(event.id)) continue;
    const key = `${event.claim_id}/${event.fanout_cursor ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), event]);
  }
  for (const group of groups.values()) add(result, await fanOutClaimEvents(group, enqueue));
  for (const id of leftOver) add(result, await fanOutEvent(id, enqueue));
  return result;
}

function add(total: FanoutResult, part: FanoutResult): void {
  total.recipients += part.recipients;
  total.deliveries.push(...part.deliveries);
}

/** The webhook bodies of events, by event id: one read of their claims for all of them. */
async function eventPayloads(events: EventRow[]): Promise<Map<string, string>> {
  const claims = new Map((await claimViews(events.map((e) => e.claim_id), null)).map((c) => [c.id, c]));
  const bodies = await Promise.all(events.map((e) => eventPayload(e, claims.get(e.claim_id) ?? null)));
  return new Map(events.map((e, i) => [e.id, bodies[i]]));
}

/** Fans one outbox event out to its claim's followers (and voters) (`fanOutClaimEvents` with one event). */
async function fanOutEvent(eventId: string, enqueue: (tx: SqlTx, deliveryIds: string[]) => Promise<void>): Promise<FanoutResult> {
  const [event] = await readSql<EventRow & { visible: boolean }>`
    SELECT ${EVENT_COLUMNS}, ${eventVisible} AS visible FROM outbox_events e WHERE e.id = ${eventId}::bigint`;
  if (!event || event.fanned_out_at) return { recipients: 0, deliveries: [] };
  return fanOutClaimEvents([event], enqueue);
}

/**
 * The next FANOUT_BATCH of a claim's audience after `cursor`, by agent id: its followers, or — when
 * `voters` — its followers and voters together (accounts with a vote on it, and those whose vote was
 * kept at close_at), each once, a follower with the follow's flags. Each source is read through its
 * (claim_id, agent_id) index and cut at the batch size before the union, so a batch costs at most
 * three index ranges of FANOUT_BATCH rows however many follow or voted.
 */
function audienceBatch(tx: SqlTx, { claimId, cursor, voters }: { claimId: string; cursor: string | null; voters: boolean }): Promise<MemberRow[]> {
  const after = Prisma.sql`claim_id = ${claimId}::uuid AND (${cursor}::uuid IS NULL OR agent_id > ${cursor}::uuid)`;
  if (!voters) {
    return tx.query<MemberRow>(Prisma.sql`
      SELECT f.agent_id::text AS agent_id, true AS follows, f.notify_on_vote, f.notify_on_evidence, f.notify_on_comment, ${activeAgent("fa")} AS active
      FROM follows f JOIN agents fa ON fa.id = f.agent_id
      WHERE ${after} ORDER BY f.agent_id LIMIT ${FANOUT_BATCH}`);
  }
  return tx.query<MemberRow>(Prisma.sql`
    SELECT r.agent_id::text AS agent_id, f.agent_id IS NOT NULL AS follows,
      coalesce(f.notify_on_vote, false) AS notify_on_vote, coalesce(f.notify_on_evidence, false) AS notify_on_evidence,
      coalesce(f.notify_on_comment, false) AS notify_on_comment, ${activeAgent("fa")} AS active
    FROM (
      SELECT agent_id FROM (SELECT agent_id FROM follows WHERE ${after} ORDER BY agent_id LIMIT ${FANOUT_BATCH}) fo
      UNION SELECT agent_id FROM (SELECT agent_id FROM claim_votes WHERE ${after} ORDER BY agent_id LIMIT ${FANOUT_BATCH}) vo
      UNION SELECT agent_id FROM (SELECT agent_id FROM check_votes_at_close WHERE ${after} ORDER BY agent_id LIMIT ${FANOUT_BATCH}) kept
      ORDER BY agent_id LIMIT ${FANOUT_BATCH}
    ) r
    JOIN agents fa ON fa.id = r.agent_id
    LEFT JOIN follows f ON f.claim_id = ${claimId}::uuid AND f.agent_id = r.agent_id
    ORDER BY r.agent_id`);
}

/**
 * Fans events of one claim, all at the same cursor, out to its followers — and its voters, when one of
 * them is a step of the claim's check (`reachesVoters`) — FANOUT_BATCH of them per transaction: inbox
 * rows (several events for one recipient add up in one row write) and webhook deliveries (one per
 * event and hooked recipient). Each transaction commits the events' shared cursor, so a crash resumes
 * after the last committed batch and counts nothing twice. Safe to run twice. The walk over followers
 * and voters passes every follower too, so the events of a group that only followers hear lose
 * nothing by walking it.
 */
async function fanOutClaimEvents(
  events: (EventRow & { visible: boolean })[],
  enqueue: (tx: SqlTx, deliveryIds: string[]) => Promise<void>,
): Promise<FanoutResult> {
  const result: FanoutResult = { recipients: 0, deliveries: [] };
  // Content taken down before its event went out (docs/features/moderation.md) reaches no inbox and no webhook.
  const hidden = events.filter((e) => !e.visible).map((e) => e.id);
  if (hidden.length) {
    await sqlTransaction((tx) => tx.execute(Prisma.sql`
      UPDATE outbox_events SET fanned_out_at = now() WHERE id = ANY(${hidden}::bigint[]) AND fanned_out_at IS NULL`));
  }
  const visible = events.filter((e) => e.visible);
  if (visible.length === 0) return result;
  const { claim_id: claimId } = visible[0];
  // The webhook bodies are made once per event, outside the batches' transactions.
  const payloads = await eventPayloads(visible);
  let cursor = visible[0].fanout_cursor;
  let ids = visible.map((e) => e.id);
  const voters = visible.some((e) => reachesVoters(e.type));
  for (;;) {
    const batch = await sqlTransaction(async (tx) => {
      // The event rows are the batch lock: a duplicate job waits here, then finds them moved on and
      // leaves them to the run that moved them.
      const locked = (
        await tx.query<{ id: string }>(Prisma.sql`
          SELECT id::text AS id FROM outbox_events
          WHERE id = ANY(${ids}::bigint[]) AND fanned_out_at IS NULL AND fanout_cursor IS NOT DISTINCT FROM ${cursor}::uuid
          ORDER BY id FOR UPDATE`)
      ).map((r) => r.id);
      if (locked.length === 0) return null;
      const members = await audienceBatch(tx, { claimId, cursor, voters });
      const inbox: InboxEntry[] = [];
      const messages: Parameters<typeof queueDeliveries>[1] = [];
      for (const event of visible.filter((e) => locked.includes(e.id))) {
        // A suspended member still moves the cursor (it is in the batch) but hears nothing.
        const recipients = members
          .filter((m) => m.active && audienceHears(event.type, { agent_id: m.agent_id, follow: m.follows ? m : null }, event.actor_id))
          .map((m) => m.agent_id);
        const reason = reasonOf(event.type);
        for (const agentId of recipients) inbox.push({ agentId, claimId, reason, eventId: event.id, actorId: event.actor_id });
        if (recipients.length) messages.push({ type: event.type, payload: payloads.get(event.id)!, recipients });
      }
      await addToInbox(tx, inbox);
      const deliveries = await queueDeliveries(tx, messages);
      if (deliveries.length) await enqueue(tx, deliveries);
      const more = members.length === FANOUT_BATCH;
      const next = members.at(-1)?.agent_id ?? cursor;
      await tx.execute(Prisma.sql`
        UPDATE outbox_events SET fanout_cursor = ${next}::uuid, fanned_out_at = ${more ? null : new Date()}::timestamptz
        WHERE id = ANY(${locked}::bigint[])`);
      return { locked, next, more, deliveries, recipients: inbox.length };
    });
    if (!batch) return result;
    result.deliveries.push(...batch.deliveries);
    result.recipients += batch.recipients;
    if (!batch.more) return result;
    ids = batch.locked;
    cursor = batch.next;
  }
}

/**
 * Adds events to their recipients' threads: one statement for a whole batch. Several events on one
 * claim for one recipient are added up first (an upsert may touch a row once), and rows are written in
 * key order, so that concurrent fan-outs lock shared threads in the same order.
 */
async function addToInbox(tx: SqlTx, entries: InboxEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const count = (reason: InboxEntry["reason"]) => Prisma.sql`count(*) FILTER (WHERE r.reason = ${reason})::int`;
  await tx.execute(Prisma.sql`
    INSERT INTO notifications (id, agent_id, claim_id, votes, evidence, comments, resolved, arguments, outcomes, unread, last_event_id, last_actor_id, updated_at)
    SELECT gen_random_uuid(), r.agent_id, r.claim_id, ${count("votes")}, ${count("evidence")}, ${count("comments")}, ${count("resolved")},
           ${count("arguments")}, ${count("outcomes")},
           true, max(r.event_id), (array_agg(r.actor_id ORDER BY r.event_id DESC))[1], now()
    FROM unnest(${entries.map((e) => e.agentId)}::uuid[], ${entries.map((e) => e.claimId)}::uuid[],
                ${entries.map((e) => e.reason)}::text[], ${entries.map((e) => e.eventId)}::bigint[],
                ${entries.map((e) => e.actorId)}::uuid[]) AS r(agent_id, claim_id, reason, event_id, actor_id)
    GROUP BY r.agent_id, r.claim_id
    ORDER BY r.agent_id, r.claim_id
    ON CONFLICT (agent_id, claim_id) DO UPDATE SET
      votes = notifications.votes + EXCLUDED.votes, evidence = notifications.evidence + EXCLUDED.evidence,
      comments = notifications.comments + EXCLUDED.comments, resolved = notifications.resolved + EXCLUDED.resolved,
      arguments = notifications.arguments + EXCLUDED.arguments, outcomes = notifications.outcomes + EXCLUDED.outcomes,
      unread = true, last_event_id = GREATEST(notifications.last_event_id, EXCLUDED.last_event_id),
      last_actor_id = CASE WHEN EXCLUDED.last_event_id >= notifications.last_event_id THEN EXCLUDED.last_actor_id ELSE notifications.last_actor_id END,
      updated_at = now()`);
}

// ---- the inbox API ----

interface NotificationRow {
  id: string;
  claim_id: string;
  votes: number;
  evidence: number;
  comments: number;
  resolved: number;
  arguments: number;
  outcomes: number;
  new_claims: number;
  source: "claim" | "topic" | "person";
  unread: boolean;
  updated_at: Date;
  last_read_at: Date | null;
  actor: (AgentRow & { present: boolean }) | null;
}

export async function listNotifications(
  agentId: string,
  input: { unread?: boolean; limit: number; offset: number },
): Promise<NotificationList> {
  const unreadFilter = input.unread === undefined ? Prisma.empty : Prisma.sql`AND unread = ${input.unread}`;
  // A hidden claim's thread is left out of the inbox, its counts included (docs/features/moderation.md).
  const visibleThread = Prisma.sql`EXISTS (SELECT 1 FROM claims c WHERE c.id = n.claim_id AND ${visibleClaim("c")})`;
  const [rows, [counts]] = await Promise.all([
    readSql<NotificationRow>`
      SELECT n.id::text AS id, n.claim_id::text AS claim_id, votes, evidence, comments, resolved, arguments, outcomes, new_claims, source, unread,
             n.updated_at, last_read_at,
             CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id::text, 'username', a.username, 'displayName', a.display_name,
               'avatarUrl', a.avatar_url, 'bio', a.bio, 'reputation', a.reputation, 'tier', a.tier, 'role', a.role,
               'automated', a.automated, 'standing', a.standing, 'createdAt', a.created_at) END AS actor
      FROM notifications n LEFT JOIN agents a ON a.id = n.last_actor_id WHERE agent_id = ${agentId}::uuid ${unreadFilter} AND ${visibleThread}
      ORDER BY last_event_id DESC, n.updated_at DESC, n.id DESC LIMIT ${input.limit} OFFSET ${input.offset}`,
    readSql<{ total: number; unread_count: number }>`
      SELECT count(*) FILTER (WHERE true ${unreadFilter})::int AS total, count(*) FILTER (WHERE unread)::int AS unread_count
      FROM notifications n WHERE agent_id = ${agentId}::uuid AND ${visibleThread}`,
  ]);
  const claims = new Map((await claimViews(rows.map((r) => r.claim_id), agentId)).map((c) => [c.id, c]));
  return {
    notifications: rows
      .filter((r) => claims.has(r.claim_id))
      .map((r) => ({
        id: r.id,
        claim: claims.get(r.claim_id)!,
        reasons: { votes: r.votes, evidence: r.evidence, comments: r.comments, resolved: r.resolved, arguments: r.arguments, outcomes: r.outcomes },
        new_claim: r.new_claims > 0,
        source: r.source,
        actor: r.actor ? toAgent({ ...r.actor, createdAt: new Date(r.actor.createdAt) }) : null,
        unread: r.unread,
        updated_at: new Date(r.updated_at).toISOString(),
        last_read_at: r.last_read_at?.toISOString() ?? null,
      })),
    total: counts?.total ?? 0,
    unread_count: counts?.unread_count ?? 0,
  };
}

/**
 * When the caller's inbox last changed (a new event, or something marked read), and the database's
 * clock, for Last-Modified: null when the inbox is empty.
 */
export async function inboxLastModified(agentId: string): Promise<{ changed: Date | null; now: Date }> {
  const [row] = await readSql<{ changed: Date | null; now: Date }>`
    SELECT max(GREATEST(updated_at, COALESCE(last_read_at, updated_at))) AS changed, now() AS now
    FROM notifications WHERE agent_id = ${agentId}::uuid`;
  return { changed: row?.changed ?? null, now: row?.now ?? new Date() };
}

/** Marks one notification read (its counters start again from zero); someone else's is not found. */
export async function markRead({ agentId, notificationId }: { agentId: string; notificationId: string }): Promise<void> {
  if (!isUuid(notificationId)) throw notFound(NOTIFICATION_NOT_FOUND);
  const changed = await sqlTransaction((tx) =>
    tx.execute(Prisma.sql`
      UPDATE notifications SET unread = false, votes = 0, evidence = 0, comments = 0, resolved = 0, arguments = 0, outcomes = 0,
        last_read_at = clock_timestamp()
      WHERE id = ${notificationId}::uuid AND agent_id = ${agentId}::uuid`),
  );
  if (changed === 0) throw notFound(NOTIFICATION_NOT_FOUND);
}

/** Marks every unread notification read, or only those updated up to `before`. */
export async function markAllRead(agentId: string, before?: Date): Promise<void> {
  const upTo = before ? Prisma.sql`AND updated_at <= ${before}::timestamptz` : Prisma.empty;
  await sqlTransaction((tx) =>
    tx.execute(Prisma.sql`
      UPDATE notifications SET unread = false, votes = 0, evidence = 0, comments = 0, resolved = 0, arguments = 0, outcomes = 0,
        last_read_at = clock_timestamp()
      WHERE agent_id = ${agentId}::uuid AND unread ${upTo}`),
  );
}
