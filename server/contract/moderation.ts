// Request and response shapes of moderation (docs/features/moderation.md): reports, the queue, hide/restore,
// suspension, roles and the audit log.
import { z } from "zod";
import { agentSchema, boundedInt, isoDate, offsetSchema, pathId, trimmedText } from "./common.ts";
import { claimSchema } from "./claims.ts";
import { commentSchema } from "./comments.ts";
import { evidenceSchema } from "./evidence.ts";
import { AUDIT_ACTIONS } from "../domain/audit.ts";

export const REPORT_TARGET_TYPES = ["claim", "evidence", "comment", "agent"] as const;
export const HIDEABLE_TYPES = ["claim", "evidence", "comment"] as const;
export const REPORT_REASONS = ["spam", "abuse", "misinformation", "off_topic", "other"] as const;
export const REPORT_STATUSES = ["open", "dismissed", "actioned"] as const;
export const NOTE_MAX = 1000;
export const REASON_MAX = 1000;

export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];
export type HideableType = (typeof HIDEABLE_TYPES)[number];

const enumOf = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { message: `${field}: must be one of ${values.join(", ")}` });

const note = (field: string) =>
  z
    .string({ message: `${field}: must be a string` })
    .trim()
    .max(NOTE_MAX, { message: `${field}: at most ${NOTE_MAX} characters` })
    .transform((v) => (v === "" ? null : v))
    .nullish();

const requiredReason = trimmedText("reason: is required", {
  min: 1,
  max: REASON_MAX,
  minMessage: `reason: must be 1-${REASON_MAX} characters`,
  maxMessage: `reason: must be 1-${REASON_MAX} characters`,
});

// ---- reports ----

export const createReportInput = z.object({
  target_type: enumOf("target_type", REPORT_TARGET_TYPES),
  // Opaque, as path ids are: an id that names no visible target of this type is a 404.
  target_id: z.string({ message: "target_id: is required" }).transform((v) => v.toLowerCase()),
  reason: enumOf("reason", REPORT_REASONS),
  note: note("note"),
});
export type CreateReportInput = z.infer<typeof createReportInput>;

export const reportSchema = z
  .object({
    id: z.uuid(),
    target_type: z.enum(REPORT_TARGET_TYPES),
    target_id: z.uuid(),
    reason: z.enum(REPORT_REASONS),
    note: z.string().nullable(),
    status: z.enum(REPORT_STATUSES),
    created_at: isoDate,
  })
  .meta({ id: "Report" });
export type ReportOut = z.infer<typeof reportSchema>;

/** Reports shown per target in the queue (docs/security.md#budgets-what-one-request-may-cost). */
export const REPORTS_PER_TARGET = 20;

export const queueInput = z.object({
  status: enumOf("status", REPORT_STATUSES).default("open"),
  target_type: enumOf("target_type", REPORT_TARGET_TYPES).optional(),
  limit: boundedInt("limit", 1, 100, 20),
  offset: offsetSchema,
});

const reasonCounts = z.object(Object.fromEntries(REPORT_REASONS.map((r) => [r, z.number().int()])) as Record<(typeof REPORT_REASONS)[number], z.ZodNumber>);

export const queueSchema = z
  .object({
    targets: z.array(
      z
        .object({
          target_type: z.enum(REPORT_TARGET_TYPES),
          target_id: z.uuid(),
          /** The claim, evidence, comment or agent as the API shows it (hidden content with its `moderation`); null once deleted. */
          target: z.union([claimSchema, evidenceSchema, commentSchema, agentSchema]).nullable(),
          report_count: z.number().int(),
          reasons: reasonCounts,
          first_reported_at: isoDate,
          /** The first REPORTS_PER_TARGET reports in `status`, oldest first; report_count and reasons count all of them. */
          reports: z.array(reportSchema),
        })
        .meta({ id: "ReportedTarget" }),
    ),
    total: z.number().int(),
  })
  .meta({ id: "ModerationQueue" });
export type ModerationQueue = z.infer<typeof queueSchema>;

export const resolveReportInput = z.object({
  report_id: pathId,
  action: enumOf("action", ["dismiss", "hide"] as const),
  note: note("note"),
});

// ---- hide, restore, suspend, roles ----

export const hideInput = z.object({
  target_type: enumOf("target_type", HIDEABLE_TYPES),
  target_id: pathId,
  reason: requiredReason,
});

export const restoreInput = z.object({
  target_type: enumOf("target_type", HIDEABLE_TYPES),
  target_id: pathId,
  reason: note("reason"),
});

export const suspendInput = z.object({
  agent_id: pathId,
  reason: requiredReason,
  until: z.iso
    .datetime({ offset: true, message: "until: must be an ISO 8601 date-time" })
    .meta({ description: "When the suspension ends: a time in the future (no value: until lifted)" })
    .nullish(),
});

export const unsuspendInput = z.object({ agent_id: pathId, reason: note("reason") });

export const setRoleInput = z.object({
  agent_id: pathId,
  role: enumOf("role", ["member", "moderator"] as const),
});

// ---- audit ----


export const auditInput = z.object({ limit: boundedInt("limit", 1, 100, 50), offset: offsetSchema });

export const auditSchema = z
  .object({
    entries: z.array(
      z
        .object({
          id: z.uuid(),
          actor: agentSchema,
          action: z.enum(AUDIT_ACTIONS),
          target_type: z.enum(REPORT_TARGET_TYPES),
          target_id: z.uuid(),
          /**
           * What the target is called, for people reading the log: an agent's @username, the start of a
           * claim's statement, of a piece of evidence (its title, else its content) or of a comment;
           * null when it no longer exists.
           */
          target_name: z.string().nullable(),
          reason: z.string().nullable(),
          created_at: isoDate,
        })
        .meta({ id: "AuditEntry" }),
    ),
    total: z.number().int(),
  })
  .meta({ id: "AuditLog" });
export type AuditLog = z.infer<typeof auditSchema>;
