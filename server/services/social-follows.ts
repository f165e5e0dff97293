// Following topics and people (docs/features/following.md#topics-and-people): a new claim with a
// followed tag, or by a followed person, reaches the follower's inbox as its own thread, saying who
// wrote it and what brought it (source "topic" or "person").
import { db, readSql } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { badRequest, forbidden } from "../errors.ts";
import { toAgent, type AgentRow } from "../contract/common.ts";
import {
  MAX_PEOPLE_FOLLOWS,
  MAX_TOPIC_FOLLOWS,
  type FollowingOut,
  type PersonFollowOut,
  type TopicFollowOut,
} from "../contract/social-follows.ts";
import { findAgent } from "./profiles.ts";
import { activeAgent } from "./visibility.ts";

/** Anything that runs raw SQL in the caller's transaction (Prisma's interactive one). */
interface RawTx {
  $executeRaw(query: Prisma.Sql): Promise<number>;
}

export async function followTopic(agentId: string, tag: string): Promise<TopicFollowOut> {
  const [row] = await db().$queryRaw<{ tag: string; created_at: Date }[]>`
    INSERT INTO topic_follows (agent_id, tag)
    SELECT ${agentId}::uuid, ${tag}
    WHERE EXISTS (SELECT 1 FROM topic_follows WHERE agent_id = ${agentId}::uuid AND tag = ${tag})
       OR (SELECT count(*) FROM topic_follows WHERE agent_id = ${agentId}::uuid) < ${MAX_TOPIC_FOLLOWS}
    ON CONFLICT (agent_id, tag) DO UPDATE SET tag = EXCLUDED.tag
    RETURNING tag, created_at`;
  if (!row) throw badRequest(`tag: at most ${MAX_TOPIC_FOLLOWS} topics can be followed`);
  return { tag: row.tag, is_following: true, created_at: row.created_at.toISOString() };
}

export async function unfollowTopic(agentId: string, tag: string): Promise<void> {
  await db().$executeRaw`DELETE FROM topic_follows WHERE agent_id = ${agentId}::uuid AND tag = ${tag}`;
}

export async function followPerson(agentId: string, idOrUsername: string): Promise<PersonFollowOut> {
  const person = await findAgent(idOrUsername);
  // One's own claims are in one's own hands already.
  if (person.id === agentId) throw forbidden();
  const [row] = await db().$queryRaw<{ created_at: Date }[]>`
    INSERT INTO agent_follows (follower_id, followee_id)
    SELECT ${agentId}::uuid, ${person.id}::uuid
    WHERE EXISTS (SELECT 1 FROM agent_follows WHERE follower_id = ${agentId}::uuid AND followee_id = ${person.id}::uuid)
       OR (SELECT count(*) FROM agent_follows WHERE follower_id = ${agentId}::uuid) < ${MAX_PEOPLE_FOLLOWS}
    ON CONFLICT (follower_id, followee_id) DO UPDATE SET followee_id = EXCLUDED.followee_id
    RETURNING created_at`;
  if (!row) throw badRequest(`agent_id: at most ${MAX_PEOPLE_FOLLOWS} people can be followed`);
  return { agent_id: person.id, is_following: true, created_at: row.created_at.toISOString() };
}

export async function unfollowPerson(agentId: string, idOrUsername: string): Promise<void> {
  const person = await findAgent(idOrUsername);
  await db().$executeRaw`DELETE FROM agent_follows WHERE follower_id = ${agentId}::uuid AND followee_id = ${person.id}::uuid`;
}

/** GET /follows: the topics and people the caller follows, newest first (both bounded). */
export async function listFollowing(agentId: string): Promise<FollowingOut> {
  const [topics, people] = await Promise.all([
    readSql<{ tag: string; created_at: Date }>`
      SELECT tag, created_at FROM topic_follows WHERE agent_id = ${agentId}::uuid ORDER BY created_at DESC, tag LIMIT ${MAX_TOPIC_FOLLOWS}`,
    readSql<AgentRow & { followed_at: Date }>`
      SELECT a.id::text AS id, a.username, a.display_name AS "displayName", a.avatar_url AS "avatarUrl", a.bio, a.reputation,
             a.tier::text AS tier, a.role::text AS role, a.automated, a.standing, a.created_at AS "createdAt", f.created_at AS followed_at
      FROM agent_follows f JOIN agents a ON a.id = f.followee_id
      WHERE f.follower_id = ${agentId}::uuid ORDER BY f.created_at DESC, a.id LIMIT ${MAX_PEOPLE_FOLLOWS}`,
  ]);
  return {
    topics: topics.map((t) => ({ tag: t.tag, created_at: t.created_at.toISOString() })),
    people: people.map((p) => ({ agent: toAgent(p), created_at: p.followed_at.toISOString() })),
  };
}

/**
 * In the new claim's own transaction: one inbox thread for the claim per follower of its author or of
 * one of its tags (the author and suspended accounts left out), saying who wrote it. A person followed
 * wins over a topic when both apply. Set-based: one statement whatever the number of followers (each
 * account follows at most MAX_TOPIC_FOLLOWS topics, but a topic or a person may have many followers).
 * The thread sorts with the outbox's events: it takes the next number of their sequence.
 */
export async function notifyNewClaim(tx: RawTx, { claimId, authorId, tags }: { claimId: string; authorId: string; tags: readonly string[] }): Promise<void> {
  await tx.$executeRaw(Prisma.sql`
    WITH followers AS (
      SELECT f.follower_id AS agent_id, 'person' AS source, 0 AS rank FROM agent_follows f WHERE f.followee_id = ${authorId}::uuid
      UNION ALL
      SELECT t.agent_id, 'topic', 1 FROM topic_follows t WHERE t.tag = ANY(${[...tags]}::text[])
    ), picked AS (
      SELECT DISTINCT ON (r.agent_id) r.agent_id, r.source FROM followers r JOIN agents a ON a.id = r.agent_id
      WHERE r.agent_id <> ${authorId}::uuid AND ${activeAgent("a")}
      ORDER BY r.agent_id, r.rank
    )
    INSERT INTO notifications (id, agent_id, claim_id, new_claims, unread, last_event_id, last_actor_id, source, updated_at)
    SELECT gen_random_uuid(), p.agent_id, ${claimId}::uuid, 1, true, nextval(pg_get_serial_sequence('outbox_events', 'id')),
           ${authorId}::uuid, p.source, now()
    FROM picked p ORDER BY p.agent_id
    ON CONFLICT (agent_id, claim_id) DO NOTHING`);
}
