// The export of everything an account holds (docs/features/accounts.md#export), without secrets, in
// pages of bounded size: each page continues the sections where the previous one stopped (keyset, in
// each section's index order) and ends after EXPORT_PAGE_ROWS rows or once its rows reach
// EXPORT_PAGE_BYTES of JSON. Rows are read in small batches, so a page never holds more than one
// batch beyond its budget in memory.
import { db } from "../db/client.ts";
import type { Prisma } from "../db/generated/client.ts";
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

/** The rows after `at` in (time, id) order. */
function afterTimeAndId<W>(at: Key | null, time: string, id: string): W {
  if (!at) return {} as W;
  const t = new Date(at[0]);
  return { OR: [{ [time]: { gt: t } }, { [time]: t, [id]: { gt: at[1] } }] } as W;
}
const timeAndId = (time: Date, id: string): Key => [time.toISOString(), id];

const SECTIONS: Record<ExportSection, Section> = {
  claims: {
    keyShape: "time+id",
    batch: 200,
    async read(authorId, after, take) {
      const rows = await db().claim.findMany({
        where: { authorId, ...afterTimeAndId<Prisma.ClaimWhereInput>(after, "createdAt", "id") },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take,
      });
      return rows.map((c) => ({
        key: timeAndId(c.createdAt, c.id),
        row: {
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
        },
      }));
    },
  },
  evidence: {
    keyShape: "time+id",
    batch: 20,
    async read(authorId, after, take) {
      const rows = await db().evidence.findMany({
        where: { authorId, ...afterTimeAndId<Prisma.EvidenceWhereInput>(after, "createdAt", "id") },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take,
      });
      return rows.map((e) => ({
        key: timeAndId(e.createdAt, e.id),
        row: {
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
        },
      }));
    },
  },
  comments: {
    keyShape: "time+id",
    batch: 100,
    async read(authorId, after, take) {
      const rows = await db().comment.findMany({
        where: { authorId, ...afterTimeAndId<Prisma.CommentWhereInput>(after, "createdAt", "id") },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take,
      });
      return rows.map((c) => ({
        key: timeAndId(c.createdAt, c.id),
        row: {
          id: c.id,
          claim_id: c.claimId,
          parent_id: c.parentId,
          content: c.content,
          is_deleted: c.isDeleted,
          is_edited: c.isEdited,
          hidden: c.hiddenAt !== null,
          created_at: iso(c.createdAt),
        },
      }));
    },
  },
  arguments: {
    keyShape: "time+id",
    batch: 200,
    async read(authorId, after, take) {
      const rows = await db().argument.findMany({
        where: { authorId, ...afterTimeAndId<Prisma.ArgumentWhereInput>(after, "createdAt", "id") },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take,
      });
      return rows.map((g) => ({
        key: timeAndId(g.createdAt, g.id),
        row: { id: g.id, parent_claim_id: g.parentClaimId, child_claim_id: g.childClaimId, stance: g.stance, created_at: iso(g.createdAt) },
      }));
    },
  },
  votes: {
    keyShape: "time+id",
    batch: 200,
    async read(agentId, after, take) {
      const rows = await db().claimVote.findMany({
        where: { agentId, ...afterTimeAndId<Prisma.ClaimVoteWhereInput>(after, "createdAt", "id") },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take,
      });
      return rows.map((v) => ({
        key: timeAndId(v.createdAt, v.id),
        row: { claim_id: v.claimId, value: v.value, created_at: iso(v.createdAt), updated_at: iso(v.updatedAt) },
      }));
    },
  },
  evidence_votes: {
    keyShape: "time+id",
    batch: 200,
    async read(agentId, after, take) {
      const rows = await db().evidenceVote.findMany({
        where: { agentId, ...afterTimeAndId<Prisma.EvidenceVoteWhereInput>(after, "createdAt", "id") },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take,
      });
      return rows.map((v) => ({
        key: timeAndId(v.createdAt, v.id),
        row: { evidence_id: v.evidenceId, direction: v.direction, created_at: iso(v.createdAt) },
      }));
    },
  },
  relevance_votes: {
    keyShape: "time+id",
    batch: 200,
    async read(agentId, after, take) {
      const rows = await db().relevanceVote.findMany({
        where: { agentId, ...afterTimeAndId<Prisma.RelevanceVoteWhereInput>(after, "createdAt", "argumentId") },
        orderBy: [{ createdAt: "asc" }, { argumentId: "asc" }],
        take,
      });
      return rows.map((v) => ({
        key: timeAndId(v.createdAt, v.argumentId),
        row: { argument_id: v.argumentId, value: v.value, created_at: iso(v.createdAt), updated_at: iso(v.updatedAt) },
      }));
    },
  },
  resolved_votes: {
    keyShape: "time+id",
    batch: 200,
    async read(agentId, after, take) {
      // Outcome records have a serial id; the key's second part is the claim (one record per claim and voter).
      const rows = await db().voteOutcomeRecord.findMany({
        where: { agentId, ...afterTimeAndId<Prisma.VoteOutcomeRecordWhereInput>(after, "resolvedAt", "claimId") },
        orderBy: [{ resolvedAt: "asc" }, { claimId: "asc" }],
        take,
      });
      return rows.map((o) => ({
        key: timeAndId(o.resolvedAt, o.claimId),
        row: { claim_id: o.claimId, value: o.value, outcome: o.outcome, consensus_true: o.consensusTrue, resolved_at: iso(o.resolvedAt) },
      }));
    },
  },
  bookmarks: {
    keyShape: "time+id",
    batch: 200,
    async read(agentId, after, take) {
      const rows = await db().bookmark.findMany({
        where: { agentId, ...afterTimeAndId<Prisma.BookmarkWhereInput>(after, "createdAt", "claimId") },
        orderBy: [{ createdAt: "asc" }, { claimId: "asc" }],
        take,
      });
      return rows.map((b) => ({ key: timeAndId(b.createdAt, b.claimId), row: { claim_id: b.claimId, created_at: iso(b.createdAt) } }));
    },
  },
  follows: {
    keyShape: "time+id",
    batch: 200,
    async read(agentId, after, take) {
      const rows = await db().follow.findMany({
        where: { agentId, ...afterTimeAndId<Prisma.FollowWhereInput>(after, "createdAt", "claimId") },
        orderBy: [{ createdAt: "asc" }, { claimId: "asc" }],
        take,
      });
      return rows.map((f) => ({
        key: timeAndId(f.createdAt, f.claimId),
        row: {
          claim_id: f.claimId,
          notify_on_vote: f.notifyOnVote,
          notify_on_evidence: f.notifyOnEvidence,
          notify_on_comment: f.notifyOnComment,
          created_at: iso(f.createdAt),
        },
      }));
    },
  },
  notifications: {
    // By claim (unique per account): updated_at changes while the export is walked.
    keyShape: "id",
    batch: 200,
    async read(agentId, after, take) {
      const rows = await db().notification.findMany({
        where: { agentId, ...(after ? { claimId: { gt: after[0] } } : {}) },
        orderBy: { claimId: "asc" },
        take,
      });
      return rows.map((n) => ({
        key: [n.claimId],
        row: {
          claim_id: n.claimId,
          reasons: { votes: n.votes, evidence: n.evidence, comments: n.comments, resolved: n.resolved, arguments: n.arguments },
          unread: n.unread,
          updated_at: iso(n.updatedAt),
          last_read_at: iso(n.lastReadAt),
        },
      }));
    },
  },
  reports: {
    keyShape: "time+id",
    batch: 200,
    async read(reporterId, after, take) {
      const rows = await db().report.findMany({
        where: { reporterId, ...afterTimeAndId<Prisma.ReportWhereInput>(after, "createdAt", "id") },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take,
      });
      return rows.map((r) => ({
        key: timeAndId(r.createdAt, r.id),
        row: { id: r.id, target_type: r.targetType, target_id: r.targetId, reason: r.reason, note: r.note, status: r.status, created_at: iso(r.createdAt) },
      }));
    },
  },
  api_keys: {
    keyShape: "time+id",
    batch: 200,
    async read(agentId, after, take) {
      const rows = await db().apiKey.findMany({
        where: { agentId, ...afterTimeAndId<Prisma.ApiKeyWhereInput>(after, "createdAt", "id") },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take,
      });
      return rows.map((k) => ({
        key: timeAndId(k.createdAt, k.id),
        row: {
          id: k.id,
          name: k.name,
          prefix: k.prefix,
          scopes: k.scopes,
          created_at: iso(k.createdAt),
          expires_at: iso(k.expiresAt),
          last_used_at: iso(k.lastUsedAt),
          revoked_at: iso(k.revokedAt),
        },
      }));
    },
  },
  webhooks: {
    keyShape: "time+id",
    batch: 200,
    async read(agentId, after, take) {
      const rows = await db().webhook.findMany({
        where: { agentId, ...afterTimeAndId<Prisma.WebhookWhereInput>(after, "createdAt", "id") },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take,
      });
      return rows.map((w) => ({
        key: timeAndId(w.createdAt, w.id),
        row: { id: w.id, url: w.url, events: w.events, description: w.description, status: w.status, created_at: iso(w.createdAt) },
      }));
    },
  },
  reputation_history: {
    keyShape: "serial",
    batch: 200,
    async read(agentId, after, take) {
      const rows = await db().reputationEvent.findMany({
        where: { agentId, ...(after ? { id: { gt: BigInt(after[0]) } } : {}) },
        orderBy: { id: "asc" },
        take,
      });
      return rows.map((h) => ({
        key: [h.id.toString()],
        row: {
          date: iso(h.createdAt),
          reputation_score: h.reputationScore,
          delta: h.delta,
          reason: h.reason,
          claim_id: h.claimId,
          evidence_id: h.evidenceId,
        },
      }));
    },
  },
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
