// Moderation (docs/features/moderation.md): reports and the queue, hide and restore, suspension, roles, and the
// append-only audit log — each action and its audit entry in one transaction. Who may call what is
// declared on the procedures (moderatorProcedure, adminProcedure); who may act on whom is decided by
// the pure rules of server/domain/roles.ts. What hiding leaves out is server/services/visibility.ts;
// the counters follow by the triggers of migration 'moderation'.
import { db, readSql } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { AppError, badRequest, conflict, forbidden, notFound } from "../errors.ts";
import { agentSelect, isUuid, toAgent, type AgentOut } from "../contract/common.ts";
import {
  REPORT_REASONS,
  REPORTS_PER_TARGET,
  type AuditLog,
  type CreateReportInput,
  type HideableType,
  type ModerationQueue,
  type ReportOut,
  type ReportTargetType,
} from "../contract/moderation.ts";
import { adminGrantAllowed } from "../auth/admin-emails.ts";
import { config } from "../config.ts";
import type { AuditAction } from "../domain/audit.ts";
import { isSuspended } from "../domain/suspension.ts";
import { mayChangeRole, mayModerateContentOf, maySuspend, type AssignableRole, type Role } from "../domain/roles.ts";
import { claimView } from "./claim-views.ts";
import { getComment } from "./comments.ts";
import { getEvidence } from "./evidence.ts";
import { refreshPlatformStats } from "./stats.ts";
import { VISIBLE_CLAIM_WHERE, VISIBLE_ON_CLAIM_WHERE } from "./visibility.ts";
import { announcePagesChanged } from "../queue/live.ts";
import { logError } from "../log/logger.ts";

type Tx = Prisma.TransactionClient;

export const ACCOUNT_SUSPENDED = "Account suspended";
export const REPORT_NOT_FOUND = "Report not found";
const NOT_FOUND: Record<ReportTargetType, string> = {
  claim: "Claim not found",
  evidence: "Evidence not found",
  comment: "Comment not found",
  agent: "Agent not found",
};

interface Actor {
  id: string;
  role: Role;
}

/** A claim, evidence or comment a moderator acts on, and who acts. */
interface ModeratedTarget {
  actor: Actor;
  type: HideableType;
  id: string;
}

interface AuditEntry {
  actorId: string;
  action: AuditAction;
  targetType: ReportTargetType;
  targetId: string;
  reason: string | null;
}

async function audit(tx: Tx, entry: AuditEntry) {
  await tx.moderationAudit.create({ data: entry });
}

/**
 * After a change of what is hidden has committed: every instance drops its shared page renders, so what
 * was hidden is gone from every page (and what was restored back) on the next load, not PAGE_CACHE_SECONDS later.
 */
async function pagesFollow(): Promise<void> {
  await announcePagesChanged().catch((err) => logError("[moderation] page cache announcement failed", err));
}

// ---- sign-in: ADMIN_EMAILS and suspension ----

/**
 * The agent's email is in ADMIN_EMAILS, verified, and it is not an admin yet: it becomes one (audited,
 * by itself). Only a verified address counts (a mailed link, a completed password reset, or an OAuth
 * provider's word): registering someone else's address proves nothing (docs/features/accounts.md).
 */
export async function applyAdminEmails(agentId: string): Promise<void> {
  const admins = config().ADMIN_EMAILS;
  if (admins.length === 0) return;
  await db().$transaction(async (tx) => {
    const agent = await tx.agent.findUnique({ where: { id: agentId }, select: { email: true, emailVerified: true, role: true } });
    if (!agent || agent.role === "admin" || !adminGrantAllowed(agent.email, agent.emailVerified !== null, admins)) return;
    const changed = await tx.agent.updateMany({ where: { id: agentId, role: { not: "admin" } }, data: { role: "admin" } });
    if (changed.count === 1) {
      await audit(tx, { actorId: agentId, action: "role_change", targetType: "agent", targetId: agentId, reason: "admin (ADMIN_EMAILS)" });
    }
  });
}


/**
 * Every sign-in (password login, web sign-in, OAuth) passes here: ADMIN_EMAILS applies, and a
 * suspended agent is refused with 403 `Account suspended`.
 */
export async function admitSignIn(agentId: string): Promise<void> {
  if (await agentSuspended(agentId)) throw new AppError("account_suspended", ACCOUNT_SUSPENDED);
  await applyAdminEmails(agentId);
}

/** Whether the agent is suspended now (the web sign-in asks before it makes a session). */
export async function agentSuspended(agentId: string): Promise<boolean> {
  const agent = await db().agent.findUnique({ where: { id: agentId }, select: { suspendedAt: true, suspendedUntil: true } });
  return agent !== null && isSuspended(agent);
}

// ---- roles ----

/** `npm run admin:grant`: makes the agent with this email or username an admin (audited as its own act). */
export async function grantAdmin(emailOrUsername: string): Promise<AgentOut | null> {
  const key = emailOrUsername.trim().toLowerCase();
  const agent = await db().agent.findFirst({ where: { OR: [{ email: key }, { usernameKey: key }] }, select: { id: true, role: true } });
  if (!agent) return null;
  return db().$transaction(async (tx) => {
    const updated = await tx.agent.update({ where: { id: agent.id }, data: { role: "admin" }, select: agentSelect });
    if (agent.role !== "admin") {
      const reason = `${agent.role} → admin (admin:grant)`;
      await audit(tx, { actorId: agent.id, action: "role_change", targetType: "agent", targetId: agent.id, reason });
    }
    return toAgent(updated);
  });
}

/** PUT /admin/agents/{agent_id}/role: takes effect at once, on tokens already issued (roles are read per request). */
export async function setRole({ actor, agentId, role }: { actor: Actor; agentId: string; role: AssignableRole }): Promise<AgentOut> {
  if (!isUuid(agentId)) throw notFound(NOT_FOUND.agent);
  return db().$transaction(async (tx) => {
    // Read and locked inside the transaction: the permission is decided on the role that is changed
    // (a concurrent role change or suspension waits), not on one read before it (docs/security.md).
    const target = await lockedTarget(tx, agentId);
    if (!mayChangeRole(actor, target)) throw forbidden();
    const updated = await tx.agent.update({ where: { id: target.id }, data: { role }, select: agentSelect });
    if (target.role !== role) {
      await audit(tx, { actorId: actor.id, action: "role_change", targetType: "agent", targetId: target.id, reason: `${target.role} → ${role}` });
    }
    return toAgent(updated);
  });
}

/** The agent a role change or suspension acts on, its row locked until the transaction ends. */
async function lockedTarget(tx: Prisma.TransactionClient, agentId: string): Promise<{ id: string; role: Role }> {
  const [target] = await tx.$queryRaw<{ id: string; role: Role }[]>`
    SELECT id::text AS id, role::text AS role FROM agents WHERE id = ${agentId}::uuid FOR UPDATE`;
  if (!target) throw notFound(NOT_FOUND.agent);
  return target;
}

// ---- reports ----

/** The author of a visible target (the agent itself for an agent), or null when there is none to see. */
async function visibleTargetOwner(targetType: ReportTargetType, targetId: string): Promise<string | null> {
  if (!isUuid(targetId)) return null;
  const where = { id: targetId };
  switch (targetType) {
    case "claim":
      return (await db().claim.findUnique({ where: { ...where, ...VISIBLE_CLAIM_WHERE }, select: { authorId: true } }))?.authorId ?? null;
    case "evidence":
      return (await db().evidence.findFirst({ where: { ...where, ...VISIBLE_ON_CLAIM_WHERE }, select: { authorId: true } }))?.authorId ?? null;
    case "comment":
      return (await db().comment.findFirst({ where: { ...where, ...VISIBLE_ON_CLAIM_WHERE }, select: { authorId: true } }))?.authorId ?? null;
    case "agent":
      return (await db().agent.findUnique({ where, select: { id: true } }))?.id ?? null;
  }
}

type ReportRow = { id: string; targetType: ReportTargetType; targetId: string; reason: ReportOut["reason"]; note: string | null; status: ReportOut["status"]; createdAt: Date };

function toReport(r: ReportRow): ReportOut {
  return { id: r.id, target_type: r.targetType, target_id: r.targetId, reason: r.reason, note: r.note, status: r.status, created_at: r.createdAt.toISOString() };
}

/** POST /reports: one open report per reporter and target (409); unknown or hidden target 404; oneself 400. */
export async function createReport(reporterId: string, input: CreateReportInput): Promise<ReportOut> {
  const owner = await visibleTargetOwner(input.target_type, input.target_id);
  if (owner === null) throw notFound(NOT_FOUND[input.target_type]);
  if (owner === reporterId) {
    throw badRequest(input.target_type === "agent" ? "target_id: you cannot report yourself" : "target_id: you cannot report your own content");
  }
  // The partial unique index (reporter, target) WHERE status = 'open' decides, also under races.
  const [row] = await db().$queryRaw<{ id: string; created_at: Date }[]>`
    INSERT INTO reports (id, reporter_id, target_type, target_id, reason, note)
    VALUES (gen_random_uuid(), ${reporterId}::uuid, ${input.target_type}::"ReportTargetType", ${input.target_id}::uuid,
            ${input.reason}::"ReportReason", ${input.note ?? null})
    ON CONFLICT (reporter_id, target_type, target_id) WHERE status = 'open' DO NOTHING
    RETURNING id::text AS id, created_at`;
  if (!row) throw conflict("You have already reported this", "already_reported");
  return {
    id: row.id,
    target_type: input.target_type,
    target_id: input.target_id,
    reason: input.reason,
    note: input.note ?? null,
    status: "open",
    created_at: new Date(row.created_at).toISOString(),
  };
}

/**
 * The target as the API shows it, as a moderator sees it (hidden content with its `moderation`), or
 * null when it is gone: one missing target must not fail the whole queue.
 */
async function targetView(moderatorId: string, { targetType, targetId }: { targetType: ReportTargetType; targetId: string }) {
  try {
    switch (targetType) {
      case "claim":
        return await claimView({ claimId: targetId, viewerId: moderatorId, includeHidden: true });
      case "evidence":
        return await getEvidence({ evidenceId: targetId, viewerId: moderatorId });
      case "comment":
        return await getComment({ commentId: targetId, viewerId: moderatorId });
      case "agent": {
        const agent = await db().agent.findUnique({ where: { id: targetId }, select: agentSelect });
        return agent ? toAgent(agent) : null;
      }
    }
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") return null;
    throw err;
  }
}

/** GET /moderation/reports: targets with reports in `status`, most reported first, then the longest waiting. */
export async function listQueue(
  moderatorId: string,
  input: { status: ReportOut["status"]; target_type?: ReportTargetType; limit: number; offset: number },
): Promise<ModerationQueue> {
  const typeFilter = input.target_type ? Prisma.sql`AND target_type = ${input.target_type}::"ReportTargetType"` : Prisma.empty;
  const [groups, [{ total }]] = await Promise.all([
    readSql<{ target_type: ReportTargetType; target_id: string; n: number; first: Date }>`
      SELECT target_type::text AS target_type, target_id::text AS target_id, count(*)::int AS n, min(created_at) AS first
      FROM reports WHERE status = ${input.status}::"ReportStatus" ${typeFilter}
      GROUP BY target_type, target_id
      ORDER BY count(*) DESC, min(created_at) ASC, target_id
      LIMIT ${input.limit} OFFSET ${input.offset}`,
    readSql<{ total: number }>`
      SELECT count(*)::int AS total FROM (
        SELECT 1 FROM reports WHERE status = ${input.status}::"ReportStatus" ${typeFilter} GROUP BY target_type, target_id
      ) g`,
  ]);
  // A target may hold thousands of reports (one open per reporter, and more after each dismissal):
  // the answer carries each target's first REPORTS_PER_TARGET and counts the reasons of all in SQL.
  const types = groups.map((g) => g.target_type);
  const ids = groups.map((g) => g.target_id);
  const [reports, reasonRows] = groups.length
    ? await Promise.all([
        readSql<ReportRow>`
          SELECT r.id::text AS id, r.target_type::text AS "targetType", r.target_id::text AS "targetId", r.reason::text AS reason,
                 r.note, r.status::text AS status, r.created_at AS "createdAt"
          FROM unnest(${types}::text[], ${ids}::uuid[]) AS t(type, id)
          CROSS JOIN LATERAL (
            SELECT * FROM reports r
            WHERE r.status = ${input.status}::"ReportStatus" AND r.target_type = t.type::"ReportTargetType" AND r.target_id = t.id
            ORDER BY r.created_at ASC, r.id ASC LIMIT ${REPORTS_PER_TARGET}
          ) r`,
        readSql<{ target_type: ReportTargetType; target_id: string; reason: (typeof REPORT_REASONS)[number]; n: number }>`
          SELECT r.target_type::text AS target_type, r.target_id::text AS target_id, r.reason::text AS reason, count(*)::int AS n
          FROM unnest(${types}::text[], ${ids}::uuid[]) AS t(type, id)
          JOIN reports r ON r.status = ${input.status}::"ReportStatus" AND r.target_type = t.type::"ReportTargetType" AND r.target_id = t.id
          GROUP BY 1, 2, 3`,
      ])
    : [[], []];
  const targets = await Promise.all(
    groups.map(async (g) => {
      const own = reports.filter((r) => r.targetType === g.target_type && r.targetId === g.target_id);
      const counted = reasonRows.filter((r) => r.target_type === g.target_type && r.target_id === g.target_id);
      const reasons = Object.fromEntries(
        REPORT_REASONS.map((reason) => [reason, Number(counted.find((r) => r.reason === reason)?.n ?? 0)]),
      ) as Record<(typeof REPORT_REASONS)[number], number>;
      return {
        target_type: g.target_type,
        target_id: g.target_id,
        target: await targetView(moderatorId, { targetType: g.target_type, targetId: g.target_id }),
        report_count: Number(g.n),
        reasons,
        first_reported_at: new Date(g.first).toISOString(),
        reports: own.map(toReport),
      };
    }),
  );
  return { targets, total: Number(total) };
}

/** Marks every open report on the target resolved. */
async function closeReports(
  tx: Tx,
  { actorId, targetType, targetId, status }: { actorId: string; targetType: ReportTargetType; targetId: string; status: "dismissed" | "actioned" },
) {
  return tx.report.updateMany({
    where: { targetType, targetId, status: "open" },
    data: { status, resolvedBy: actorId, resolvedAt: new Date() },
  });
}

/** POST /moderation/reports/{report_id}/resolve: dismisses, or hides the target; resolves every open report on it. */
export async function resolveReport({
  actor,
  reportId,
  action,
  note,
}: {
  actor: Actor;
  reportId: string;
  action: "dismiss" | "hide";
  note: string | null;
}): Promise<void> {
  const report = isUuid(reportId) ? await db().report.findUnique({ where: { id: reportId } }) : null;
  if (!report) throw notFound(REPORT_NOT_FOUND);
  if (report.status !== "open") throw conflict("Report already resolved");
  if (action === "hide" && report.targetType === "agent") {
    throw badRequest("action: an agent cannot be hidden; dismiss the report or suspend the agent");
  }
  await db().$transaction(async (tx) => {
    const target = { targetType: report.targetType, targetId: report.targetId };
    if (action === "hide") {
      await hideIn(tx, { actor, type: report.targetType as HideableType, id: report.targetId, reason: note ?? `report: ${report.reason}` });
    }
    const closed = await closeReports(tx, { actorId: actor.id, ...target, status: action === "hide" ? "actioned" : "dismissed" });
    if (closed.count === 0) throw conflict("Report already resolved");
    await audit(tx, { actorId: actor.id, action: action === "hide" ? "resolve_hide" : "resolve_dismiss", ...target, reason: note });
  });
  if (action === "hide") await refreshPlatformStats().catch(() => {});
  await pagesFollow();
}

// ---- hide and restore ----

const TABLES: Record<HideableType, Prisma.Sql> = {
  claim: Prisma.raw("claims"),
  evidence: Prisma.raw("evidence"),
  comment: Prisma.raw("comments"),
};

/**
 * The target exists and `actor` may hide or restore it: a moderator not an admin's content
 * (docs/features/moderation.md#roles). Nothing is locked: a role change of the author committing
 * meanwhile is simply ordered after the hide, whose decision was right for the role it read.
 */
async function assertMayModerate(tx: Tx, { actor, type, id }: ModeratedTarget): Promise<void> {
  const [target] = await tx.$queryRaw<{ role: Role }[]>`
    SELECT a.role::text AS role FROM ${TABLES[type]} t JOIN agents a ON a.id = t.author_id WHERE t.id = ${id}::uuid`;
  if (!target) throw notFound(NOT_FOUND[type]);
  if (!mayModerateContentOf(actor, target.role)) throw forbidden();
}

/**
 * Hides the target in `tx` (the counters follow by trigger, in the same transaction); false when it
 * was hidden already. One conditional UPDATE: of two concurrent hides exactly one changes the row.
 */
async function hideIn(tx: Tx, { actor, type, id, reason }: ModeratedTarget & { reason: string }): Promise<boolean> {
  await assertMayModerate(tx, { actor, type, id });
  const changed = await tx.$executeRaw`
    UPDATE ${TABLES[type]} SET hidden_at = now(), hidden_reason = ${reason} WHERE id = ${id}::uuid AND hidden_at IS NULL`;
  if (changed === 0) return false;
  await audit(tx, { actorId: actor.id, action: "hide", targetType: type, targetId: id, reason });
  return true;
}

/** POST /moderation/{target_type}/{target_id}/hide: idempotent; resolves the open reports on it as actioned. */
export async function hide({ actor, type, id, reason }: ModeratedTarget & { reason: string }): Promise<void> {
  if (!isUuid(id)) throw notFound(NOT_FOUND[type]);
  const changed = await db().$transaction(async (tx) => {
    const hid = await hideIn(tx, { actor, type, id, reason });
    if (hid) await closeReports(tx, { actorId: actor.id, targetType: type, targetId: id, status: "actioned" });
    return hid;
  });
  if (changed) await refreshPlatformStats().catch(() => {});
  await pagesFollow();
}

/** POST /moderation/{target_type}/{target_id}/restore: everything comes back as it was (counters included). */
export async function restore({ actor, type, id, reason }: ModeratedTarget & { reason: string | null }): Promise<void> {
  if (!isUuid(id)) throw notFound(NOT_FOUND[type]);
  const changed = await db().$transaction(async (tx) => {
    await assertMayModerate(tx, { actor, type, id });
    const n = await tx.$executeRaw`
      UPDATE ${TABLES[type]} SET hidden_at = NULL, hidden_reason = NULL WHERE id = ${id}::uuid AND hidden_at IS NOT NULL`;
    if (n === 0) return false;
    await audit(tx, { actorId: actor.id, action: "restore", targetType: type, targetId: id, reason });
    return true;
  });
  if (changed) await refreshPlatformStats().catch(() => {});
  await pagesFollow();
}

// ---- suspension ----

async function suspensionTarget(tx: Prisma.TransactionClient, actor: Actor, agentId: string) {
  if (!isUuid(agentId)) throw notFound(NOT_FOUND.agent);
  const target = await lockedTarget(tx, agentId);
  if (!maySuspend(actor, target)) throw forbidden();
  return target;
}

/**
 * POST /moderation/agents/{agent_id}/suspend. At once, in one transaction: the agent is marked (every
 * credential is refused while it is: server/auth/identity.ts), its token families and API keys are
 * revoked (they stay dead afterwards) with its MCP clients' grants, and its web sessions signed in before now are refused.
 */
export async function suspend({
  actor,
  agentId,
  reason,
  until,
}: {
  actor: Actor;
  agentId: string;
  reason: string;
  /** ISO date-time the suspension ends by itself; none: until lifted. */
  until?: string | null;
}): Promise<void> {
  const now = new Date();
  const untilDate = until ? new Date(until) : null;
  if (untilDate && untilDate <= now) throw badRequest("until: must be in the future");
  await db().$transaction(async (tx) => {
    const target = await suspensionTarget(tx, actor, agentId);
    await tx.agent.update({
      where: { id: target.id },
      data: { suspendedAt: now, suspendedUntil: untilDate, suspensionReason: reason, sessionsValidAfter: now },
    });
    await tx.refreshTokenFamily.updateMany({ where: { agentId: target.id, revokedAt: null }, data: { revokedAt: now } });
    await tx.apiKey.updateMany({ where: { agentId: target.id, revokedAt: null }, data: { revokedAt: now } });
    // The MCP clients it granted (docs/features/mcp.md#oauth): grants, codes and tokens go.
    await tx.mcpOAuthArtifact.deleteMany({ where: { agentId: target.id } });
    const why = untilDate ? `${reason} (until ${untilDate.toISOString()})` : reason;
    await audit(tx, { actorId: actor.id, action: "suspend", targetType: "agent", targetId: target.id, reason: why });
  });
}

/** POST /moderation/agents/{agent_id}/unsuspend: the agent can sign in again (old credentials stay revoked). */
export async function unsuspend({ actor, agentId, reason }: { actor: Actor; agentId: string; reason: string | null }): Promise<void> {
  await db().$transaction(async (tx) => {
    const target = await suspensionTarget(tx, actor, agentId);
    const changed = await tx.agent.updateMany({
      where: { id: target.id, suspendedAt: { not: null } },
      data: { suspendedAt: null, suspendedUntil: null, suspensionReason: null },
    });
    if (changed.count === 1) {
      await audit(tx, { actorId: actor.id, action: "unsuspend", targetType: "agent", targetId: target.id, reason });
    }
  });
}

// ---- the audit log ----

export async function listAudit(input: { limit: number; offset: number }): Promise<AuditLog> {
  const [rows, total] = await Promise.all([
    db().moderationAudit.findMany({
      orderBy: { seq: "desc" },
      skip: input.offset,
      take: input.limit,
      include: { actor: { select: agentSelect } },
    }),
    db().moderationAudit.count(),
  ]);
  const names = await targetNames(rows.map((r) => ({ type: r.targetType as ReportTargetType, id: r.targetId })));
  return {
    entries: rows.map((r) => ({
      id: r.id,
      actor: toAgent(r.actor),
      action: r.action as AuditAction,
      target_type: r.targetType as ReportTargetType,
      target_id: r.targetId,
      target_name: names.get(`${r.targetType}:${r.targetId}`) ?? null,
      reason: r.reason,
      created_at: r.createdAt.toISOString(),
    })),
    total,
  };
}

const TARGET_NAME_LENGTH = 80;

function shortName(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > TARGET_NAME_LENGTH ? `${oneLine.slice(0, TARGET_NAME_LENGTH - 1)}…` : oneLine;
}

/** "type:id" → the target's name in the audit log (one query per kind of target on the page). */
async function targetNames(targets: { type: ReportTargetType; id: string }[]): Promise<Map<string, string>> {
  const idsOf = (type: ReportTargetType) => [...new Set(targets.filter((t) => t.type === type).map((t) => t.id))];
  const [agents, claims, evidence, comments] = await Promise.all([
    db().agent.findMany({ where: { id: { in: idsOf("agent") } }, select: { id: true, username: true } }),
    db().claim.findMany({ where: { id: { in: idsOf("claim") } }, select: { id: true, statement: true } }),
    db().evidence.findMany({ where: { id: { in: idsOf("evidence") } }, select: { id: true, title: true, content: true } }),
    db().comment.findMany({ where: { id: { in: idsOf("comment") } }, select: { id: true, content: true } }),
  ]);
  const names = new Map<string, string>();
  for (const a of agents) names.set(`agent:${a.id}`, `@${a.username}`);
  for (const c of claims) names.set(`claim:${c.id}`, shortName(c.statement));
  for (const e of evidence) names.set(`evidence:${e.id}`, shortName(e.title ?? e.content));
  for (const c of comments) names.set(`comment:${c.id}`, shortName(c.content));
  return names;
}
