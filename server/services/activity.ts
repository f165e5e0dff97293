// A profile's activity lists (docs/features/activity.md): the agent's claims, evidence, arguments and
// votes, newest first, paged by a cursor. Each page is one index range of the agent's own rows (the
// (author|agent)_id, created_at indexes) and leaves hidden content out. Votes are the voter's own to
// see: the open data names no voter (docs/features/open-data.md), so a profile does not either.
import { readSql } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { forbidden } from "../errors.ts";
import type { ActivityInput, ActivityItem, ActivityPage } from "../contract/activity.ts";
import { findAgent } from "./profiles.ts";
import { visibleClaim, visibleEvidence } from "./visibility.ts";

/** Characters of an evidence's content shown when it has no title. */
export const ACTIVITY_TEXT_CHARS = 200;

interface Row {
  id: string;
  created_at: Date;
  claim_id: string;
  statement: string;
  position: string | null;
  text: string | null;
  child_claim_id: string | null;
  value: number | null;
}

/** "1764300000000_<uuid>" → the (created_at, id) to start after. */
function after(cursor: string | undefined, alias: string): Prisma.Sql {
  if (!cursor) return Prisma.sql`TRUE`;
  const [ms, id] = cursor.split("_") as [string, string];
  const at = new Date(Number(ms));
  return Prisma.sql`(${Prisma.raw(alias)}.created_at, ${Prisma.raw(alias)}.id) < (${at}::timestamptz, ${id.toLowerCase()}::uuid)`;
}

const cursorOf = (row: Row) => `${new Date(row.created_at).getTime()}_${row.id}`;

function query({ type, agentId, cursor, take }: { type: ActivityInput["type"]; agentId: string; cursor: string | undefined; take: number }): Prisma.Sql {
  switch (type) {
    case "claims":
      return Prisma.sql`
        SELECT c.id::text AS id, c.created_at, c.id::text AS claim_id, c.statement,
               NULL::text AS position, NULL::text AS text, NULL::text AS child_claim_id, NULL::float8 AS value
        FROM claims c
        WHERE c.author_id = ${agentId}::uuid AND ${visibleClaim("c")} AND ${after(cursor, "c")}
        ORDER BY c.created_at DESC, c.id DESC LIMIT ${take}`;
    case "evidence":
      return Prisma.sql`
        SELECT e.id::text AS id, e.created_at, c.id::text AS claim_id, c.statement,
               e.position::text AS position, COALESCE(e.title, left(e.content, ${ACTIVITY_TEXT_CHARS})) AS text,
               NULL::text AS child_claim_id, NULL::float8 AS value
        FROM evidence e JOIN claims c ON c.id = e.claim_id
        WHERE e.author_id = ${agentId}::uuid AND ${visibleEvidence("e")} AND ${after(cursor, "e")}
        ORDER BY e.created_at DESC, e.id DESC LIMIT ${take}`;
    case "arguments":
      return Prisma.sql`
        SELECT a.id::text AS id, a.created_at, p.id::text AS claim_id, p.statement,
               a.stance::text AS position, ch.statement AS text, ch.id::text AS child_claim_id, NULL::float8 AS value
        FROM arguments a JOIN claims p ON p.id = a.parent_claim_id JOIN claims ch ON ch.id = a.child_claim_id
        WHERE a.author_id = ${agentId}::uuid AND ${visibleClaim("p")} AND ${visibleClaim("ch")} AND ${after(cursor, "a")}
        ORDER BY a.created_at DESC, a.id DESC LIMIT ${take}`;
    case "votes":
      return Prisma.sql`
        SELECT v.id::text AS id, v.created_at, c.id::text AS claim_id, c.statement,
               NULL::text AS position, NULL::text AS text, NULL::text AS child_claim_id, v.value AS value
        FROM claim_votes v JOIN claims c ON c.id = v.claim_id
        WHERE v.agent_id = ${agentId}::uuid AND ${visibleClaim("c")} AND ${after(cursor, "v")}
        ORDER BY v.created_at DESC, v.id DESC LIMIT ${take}`;
  }
}

const ITEM_TYPE = { claims: "claim", evidence: "evidence", arguments: "argument", votes: "vote" } as const;

export async function listActivity(input: ActivityInput, viewerId: string | null): Promise<ActivityPage> {
  const agent = await findAgent(input.agent_id);
  if (input.type === "votes" && viewerId !== agent.id) throw forbidden();
  const rows = await readSql<Row>(query({ type: input.type, agentId: agent.id, cursor: input.cursor, take: input.limit + 1 }));
  const page = rows.slice(0, input.limit);
  const items: ActivityItem[] = page.map((r) => ({
    type: ITEM_TYPE[input.type],
    id: r.id,
    created_at: new Date(r.created_at).toISOString(),
    claim: { id: r.claim_id, statement: r.statement },
    position: r.position,
    text: r.text,
    child_claim_id: r.child_claim_id,
    value: r.value === null ? null : Number(r.value),
  }));
  return { type: input.type, items, next_cursor: rows.length > input.limit ? cursorOf(page[page.length - 1]!) : null };
}
