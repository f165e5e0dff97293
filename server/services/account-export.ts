// The export of everything an account holds (docs/features/accounts.md#export), without secrets, in
// pages of bounded size: each page continues the sections where the previous one stopped (keyset, in
// each section's index order) and ends after EXPORT_PAGE_ROWS rows or once its rows reach
// EXPORT_PAGE_BYTES of JSON. Rows are read in small batches, so a page never holds more than one
// batch beyond its budget in memory.
import { db } from "../db/client.ts";
import { badRequest } from "../errors.ts";
import { isUuid } from "../contract/common.ts";
import {
  EXPORT_PAGE_BYTES,
  EXPORT_PAGE_ROWS,
  EXPORT_SECTIONS,
  type AccountExport,
  type ExportSection,
} from "../contract/accounts.ts";
import { getAccount } from "./accounts.ts";

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

type Row = Record<string, unknown>;
/** Where a section's walk stands: the sort key of the last row given, as strings. */
type Key = string[];
/**
 * - time+id: (created_at or resolved_at, a uuid), for rows that keep the order they were made in;
 * - id: one uuid (notifications: the claim, unique per account);
 * - serial: a bigint id (the reputation history).
 */
type KeyShape = "time+id" | "id" | "serial";

interface Section {
  keyShape: KeyShape;
  /** Rows per read: small where one row may be large (evidence up to 50,000 characters). */
  batch: number;
  read(agentId: string, after: Key | null, take: number): Promise<{ key: Key; row: Row }[]>;
}

/** What a section asks of its table: Prisma's findMany with the filter and order the walk builds. */
type FindPage = { where: object; orderBy: object[]; take: number };

/** A key's parts as the database takes them, by the key's shape. */
const KEY_PARTS: Record<KeyShape, ((part: string) => unknown)[]> = {
  "time+id": [(t) => new Date(t), (id) => id],
  id: [(id) => id],
  serial: [(n) => BigInt(n)],
};

/**
 * A section read in keyset pages: the rows whose `owner` column is the account, in the order of the
 * `key` columns, after the key given; a row's key is its key columns as strings.
 */
function keyset<R extends Row>(spec: {
  keyShape?: KeyShape;
  batch?: number;
  owner?: "agentId" | "authorId" | "reporterId" | "followerId";
  key: (keyof R & string)[];
  findMany(args: FindPage): Promise<R[]>;
  row(r: R): Row;
}): Section {
  const { keyShape = "time+id", batch = 200, owner = "agentId", key: columns } = spec;
  /** The rows after `at` in key order: greater in the first column, or equal there and greater in the next. */
  const after = (at: Key) => {
    const values = at.map((part, i) => KEY_PARTS[keyShape][i](part));
    const ways = columns.map((column, i) => ({
      ...Object.fromEntries(columns.slice(0, i).map((c, j) => [c, values[j]])),
      [column]: { gt: values[i] },
    }));
    return ways.length === 1 ? ways[0] : { OR: ways };
  };
  return {
    keyShape,
    batch,
    async read(agentId, at, take) {
      const rows = await spec.findMany({
        where: { [owner]: agentId, ...(at ? after(at) : {}) },
        orderBy: columns.map((c) => ({ [c]: "asc" })),
        take,
      });
      return rows.map((r) => ({
        key: columns.map((c) => (r[c] instanceof Date ? r[c].toISOString() : String(r[c]))),
        row: spec.row(r),
      }));
    },
  };
}

const SECTIONS: Record<ExportSection, Section> = {
  claims: keyset({
    owner: "authorId",
    key: ["createdAt", "id"],
    findMany: (page) => db().claim.findMany(page),
    row: (c) => ({
      id: c.id,
      statement: c.statement,
      complexity_tier: c.complexityTier,
      tags: c.tags,
      gradient: c.gradient,
      vote_count: c.voteCount,
      evidence_count: c.evidenceCount,
      hidden: c.hiddenAt !== null,
      created_at: iso(c.createdAt),
      updated_at: iso(c.updatedAt),
    }),
  }),
  evidence: keyset({
    batch: 20,
    owner: "authorId",
    key: ["createdAt", "id"],
    findMany: (page) => db().evidence.findMany(page),
    row: (e) => ({
      id: e.id,
      claim_id: e.claimId,
      position: e.position,
      content_type: e.contentType,
      content: e.content,
      title: e.title,
      excerpt: e.excerpt,
      upvotes: e.upvotes,
      downvotes: e.downvotes,
      hidden: e.hiddenAt !== null,
      created_at: iso(e.createdAt),
    }),
  }),
  comments: keyset({
    batch: 100,
    owner: "authorId",
    key: ["createdAt", "id"],
    findMany: (page) => db().comment.findMany(page),
    row: (c) => ({
      id: c.id,
      claim_id: c.claimId,
      parent_id: c.parentId,
      content: c.content,
      is_deleted: c.isDeleted,
      is_edited: c.isEdited,
      hidden: c.hiddenAt !== null,
      created_at: iso(c.createdAt),
    }),
  }),
  arguments: keyset({
    owner: "authorId",
    key: ["createdAt", "id"],
    findMany: (page) => db().argument.findMany(page),
    row: (g) => ({ id: g.id, parent_claim_id: g.parentClaimId, child_claim_id: g.childClaimId, stance: g.stance, created_at: iso(g.createdAt) }),
  }),
  votes: keyset({
    key: ["createdAt", "id"],
    findMany: (page) => db().claimVote.findMany(page),
    row: (v) => ({ claim_id: v.claimId, value: v.value, created_at: iso(v.createdAt), updated_at: iso(v.updatedAt) }),
  }),
  evidence_votes: keyset({
    key: ["createdAt", "id"],
    findMany: (page) => db().evidenceVote.findMany(page),
    row: (v) => ({ evidence_id: v.evidenceId, direction: v.direction, created_at: iso(v.createdAt) }),
  }),
  relevance_votes: keyset({
    key: ["createdAt", "argumentId"],
    findMany: (page) => db().relevanceVote.findMany(page),
    row: (v) => ({ argument_id: v.argumentId, value: v.value, created_at: iso(v.createdAt), updated_at: iso(v.updatedAt) }),
  }),
  // Outcome records have a serial id; the key's second part is the claim (one record per claim and voter).
  resolved_votes: keyset({
    key: ["resolvedAt", "claimId"],
    findMany: (page) => db().voteOutcomeRecord.findMany(page),
    row: (o) => ({ claim_id: o.claimId, value: o.value, outcome: o.outcome, consensus_true: o.consensusTrue, resolved_at: iso(o.resolvedAt) }),
  }),
  bookmarks: keyset({
    key: ["createdAt", "claimId"],
    findMany: (page) => db().bookmark.findMany(page),
    row: (b) => ({ claim_id: b.claimId, created_at: iso(b.createdAt) }),
  }),
  follows: keyset({
    key: ["createdAt", "claimId"],
    findMany: (page) => db().follow.findMany(page),
    row: (f) => ({
      claim_id: f.claimId,
      notify_on_vote: f.notifyOnVote,
      notify_on_evidence: f.notifyOnEvidence,
      notify_on_comment: f.notifyOnComment,
      created_at: iso(f.createdAt),
    }),
  }),
  topic_follows: keyset({
    key: ["createdAt", "tag"],
    findMany: (page) => db().topicFollow.findMany(page),
    row: (t) => ({ tag: t.tag, created_at: iso(t.createdAt) }),
  }),
  people_follows: keyset({
    owner: "followerId",
    key: ["createdAt", "followeeId"],
    findMany: (page) => db().agentFollow.findMany(page),
    row: (f) => ({ agent_id: f.followeeId, created_at: iso(f.createdAt) }),
  }),
  // By claim (unique per account): updated_at changes while the export is walked.
  notifications: keyset({
    keyShape: "id",
    key: ["claimId"],
    findMany: (page) => db().notification.findMany(page),
    row: (n) => ({
      claim_id: n.claimId,
      reasons: { votes: n.votes, evidence: n.evidence, comments: n.comments, resolved: n.resolved, arguments: n.arguments, outcomes: n.outcomes },
      unread: n.unread,
      updated_at: iso(n.updatedAt),
      last_read_at: iso(n.lastReadAt),
    }),
  }),
  reports: keyset({
    owner: "reporterId",
    key: ["createdAt", "id"],
    findMany: (page) => db().report.findMany(page),
    row: (r) => ({ id: r.id, target_type: r.targetType, target_id: r.targetId, reason: r.reason, note: r.note, status: r.status, created_at: iso(r.createdAt) }),
  }),
  api_keys: keyset({
    key: ["createdAt", "id"],
    findMany: (page) => db().apiKey.findMany(page),
    row: (k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      scopes: k.scopes,
      created_at: iso(k.createdAt),
      expires_at: iso(k.expiresAt),
      last_used_at: iso(k.lastUsedAt),
      revoked_at: iso(k.revokedAt),
    }),
  }),
  webhooks: keyset({
    key: ["createdAt", "id"],
    findMany: (page) => db().webhook.findMany(page),
    row: (w) => ({ id: w.id, url: w.url, events: w.events, description: w.description, status: w.status, created_at: iso(w.createdAt) }),
  }),
  reputation_history: keyset({
    keyShape: "serial",
    key: ["id"],
    findMany: (page) => db().reputationEvent.findMany(page),
    row: (h) => ({
      date: iso(h.createdAt),
      reputation_score: h.reputationScore,
      delta: h.delta,
      reason: h.reason,
      claim_id: h.claimId,
      evidence_id: h.evidenceId,
    }),
  }),
};

// ---- the cursor: the section and the key of the last row given, base64url JSON ----

const INVALID_CURSOR = "cursor: must be the next_cursor of a previous page";

function encodeCursor(section: ExportSection, key: Key | null): string {
  return Buffer.from(JSON.stringify([section, ...(key ?? [])])).toString("base64url");
}

/**
 * A time as encodeCursor writes it (toISOString, years 1000–9999): JavaScript also takes year 0 and years
 * of six digits with a sign, which PostgreSQL or Prisma refuse (a 500).
 */
const CURSOR_TIME = /^[1-9]\d{3}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const INT8_MAX = 2n ** 63n - 1n;

function keyFits(shape: KeyShape, key: Key): boolean {
  if (key.length === 0) return true; // the section's start
  if (shape === "time+id") return key.length === 2 && CURSOR_TIME.test(key[0]) && !Number.isNaN(Date.parse(key[0])) && isUuid(key[1]);
  if (shape === "id") return key.length === 1 && isUuid(key[0]);
  return key.length === 1 && /^\d{1,19}$/.test(key[0]) && BigInt(key[0]) <= INT8_MAX;
}

function decodeCursor(cursor: string): { section: number; key: Key | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw badRequest(INVALID_CURSOR);
  }
  if (!Array.isArray(parsed) || !parsed.every((p) => typeof p === "string")) throw badRequest(INVALID_CURSOR);
  const [name, ...key] = parsed as string[];
  const section = EXPORT_SECTIONS.indexOf(name as ExportSection);
  if (section === -1 || !keyFits(SECTIONS[name as ExportSection].keyShape, key)) throw badRequest(INVALID_CURSOR);
  return { section, key: key.length > 0 ? key : null };
}

/**
 * GET /auth/me/export: one page of everything the account holds, without secrets (key and webhook
 * secrets, hashes). Walk it by passing each page's `next_cursor` back until it is null.
 */
export async function exportAccount(agentId: string, input: { cursor?: string } = {}): Promise<AccountExport> {
  let { section, key } = input.cursor ? decodeCursor(input.cursor) : { section: 0, key: null as Key | null };
  const [account, agent] = await Promise.all([
    getAccount(agentId),
    db().agent.findUniqueOrThrow({ where: { id: agentId }, select: { accounts: { select: { provider: true } } } }),
  ]);
  const page = Object.fromEntries(EXPORT_SECTIONS.map((s) => [s, [] as Row[]])) as Record<ExportSection, Row[]>;
  let rows = 0;
  let bytes = 0;
  let nextCursor: string | null = null;
  walk: while (section < EXPORT_SECTIONS.length) {
    const name = EXPORT_SECTIONS[section];
    const take = Math.min(SECTIONS[name].batch, EXPORT_PAGE_ROWS - rows);
    const batch = await SECTIONS[name].read(agentId, key, take);
    for (const item of batch) {
      page[name].push(item.row);
      rows += 1;
      bytes += Buffer.byteLength(JSON.stringify(item.row));
      key = item.key;
      if (rows >= EXPORT_PAGE_ROWS || bytes >= EXPORT_PAGE_BYTES) {
        nextCursor = encodeCursor(name, key);
        break walk;
      }
    }
    if (batch.length < take) {
      section += 1;
      key = null;
    }
  }
  return {
    exported_at: new Date().toISOString(),
    account: { ...account, oauth_providers: agent.accounts.map((a) => a.provider) },
    ...page,
    next_cursor: nextCursor,
  };
}
