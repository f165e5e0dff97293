// What the moderation audit log records: one entry per action, in the transaction of the action.
export const AUDIT_ACTIONS = ["role_change", "hide", "restore", "suspend", "unsuspend", "resolve_dismiss", "resolve_hide", "settle_outcome"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
