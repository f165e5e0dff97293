// Moderation (docs/features/moderation.md). Reports are open to every agent; the queue, hide/restore, suspension and
// the audit log need a moderator (moderatorProcedure), role changes an admin (adminProcedure). Neither
// accepts an API key: moderation needs an access token or a web session. Literal paths first.
import { z } from "zod";
import * as moderation from "../../services/moderation.ts";
import { agentSchema } from "../../contract/common.ts";
import {
  auditInput,
  auditSchema,
  createReportInput,
  hideInput,
  queueInput,
  queueSchema,
  reportSchema,
  resolveReportInput,
  restoreInput,
  setRoleInput,
  suspendInput,
  unsuspendInput,
} from "../../contract/moderation.ts";
import { adminProcedure, agentProcedure, moderatorProcedure, router } from "../trpc.ts";

const TAG = ["moderation"];
const MODERATORS = "Moderators and admins, with an access token or a web session (an API key gets 403).";

export const moderationRouter = router({
  report: agentProcedure
    .meta({
      errors: ["not_found", "already_reported"],
      scope: "write",
      successStatus: 201,
      openapi: {
        method: "POST",
        path: "/reports",
        tags: TAG,
        protect: true,
        summary: "Report a claim, evidence, comment or agent",
        description: "One open report per reporter and target (again → 409); an unknown target → 404; reporting oneself or one's own content → 400.",
      },
    })
    .input(createReportInput)
    .output(reportSchema)
    .mutation(({ ctx, input }) => moderation.createReport(ctx.agent.id, input)),

  queue: moderatorProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/moderation/reports",
        tags: TAG,
        protect: true,
        summary: "The moderation queue: reported targets, most reported first",
        description: MODERATORS,
      },
    })
    .input(queueInput)
    .output(queueSchema)
    .query(({ ctx, input }) => moderation.listQueue(ctx.agent.id, input)),

  audit: moderatorProcedure
    .meta({
      openapi: { method: "GET", path: "/moderation/audit", tags: TAG, protect: true, summary: "The audit log, newest first", description: MODERATORS },
    })
    .input(auditInput)
    .output(auditSchema)
    .query(({ input }) => moderation.listAudit(input)),

  resolve: moderatorProcedure
    .meta({
      errors: ["conflict"],
      successStatus: 204,
      openapi: {
        method: "POST",
        path: "/moderation/reports/{report_id}/resolve",
        tags: TAG,
        protect: true,
        summary: "Dismiss a report, or hide its target; resolves every open report on that target",
        description: MODERATORS,
      },
    })
    .input(resolveReportInput)
    .output(z.void())
    .mutation(({ ctx, input }) => moderation.resolveReport({ actor: ctx.agent, reportId: input.report_id, action: input.action, note: input.note ?? null })),

  suspend: moderatorProcedure
    .meta({
      successStatus: 204,
      openapi: {
        method: "POST",
        path: "/moderation/agents/{agent_id}/suspend",
        tags: TAG,
        protect: true,
        summary: "Suspend an agent: every credential it holds stops working at once",
        description: `${MODERATORS} Admins cannot be suspended, nor oneself; suspending a moderator takes an admin.`,
      },
    })
    .input(suspendInput)
    .output(z.void())
    .mutation(({ ctx, input }) => moderation.suspend({ actor: ctx.agent, agentId: input.agent_id, reason: input.reason, until: input.until })),

  unsuspend: moderatorProcedure
    .meta({
      successStatus: 204,
      openapi: { method: "POST", path: "/moderation/agents/{agent_id}/unsuspend", tags: TAG, protect: true, summary: "Lift a suspension", description: MODERATORS },
    })
    .input(unsuspendInput)
    .output(z.void())
    .mutation(({ ctx, input }) => moderation.unsuspend({ actor: ctx.agent, agentId: input.agent_id, reason: input.reason ?? null })),

  hide: moderatorProcedure
    .meta({
      successStatus: 204,
      openapi: {
        method: "POST",
        path: "/moderation/{target_type}/{target_id}/hide",
        tags: TAG,
        protect: true,
        summary: "Hide a claim, evidence or comment from everyone but its author and moderators",
        description: `${MODERATORS} Hidden content leaves every list, search, discovery result, topic, count and statistic; votes on it answer 404.`,
      },
    })
    .input(hideInput)
    .output(z.void())
    .mutation(({ ctx, input }) => moderation.hide({ actor: ctx.agent, type: input.target_type, id: input.target_id, reason: input.reason })),

  restore: moderatorProcedure
    .meta({
      successStatus: 204,
      openapi: {
        method: "POST",
        path: "/moderation/{target_type}/{target_id}/restore",
        tags: TAG,
        protect: true,
        summary: "Restore hidden content as it was",
        description: MODERATORS,
      },
    })
    .input(restoreInput)
    .output(z.void())
    .mutation(({ ctx, input }) => moderation.restore({ actor: ctx.agent, type: input.target_type, id: input.target_id, reason: input.reason ?? null })),

  setRole: adminProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: "/admin/agents/{agent_id}/role",
        tags: TAG,
        protect: true,
        summary: "Make an agent a moderator or a member again (admins only)",
        description: "Takes effect at once, on tokens already issued. Admin is granted only by ADMIN_EMAILS or `npm run admin:grant`.",
      },
    })
    .input(setRoleInput)
    .output(agentSchema)
    .mutation(({ ctx, input }) => moderation.setRole({ actor: ctx.agent, agentId: input.agent_id, role: input.role })),
});
