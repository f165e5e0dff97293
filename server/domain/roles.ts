// Who may moderate (docs/features/moderation.md). Pure rules: the procedure builders (server/api/trpc.ts) check the
// role a procedure declares, for every entry point; the moderation service checks who may act on whom.

export const ROLE_ORDER = ["member", "moderator", "admin"] as const;
export type Role = (typeof ROLE_ORDER)[number];

/** Whether an agent with `role` may call a procedure that needs `required` (admin ⊃ moderator ⊃ member). */
export function roleAllows(role: Role, required: Role): boolean {
  return ROLE_ORDER.indexOf(role) >= ROLE_ORDER.indexOf(required);
}

/** Moderators and admins see hidden content and act on it. */
export const isModerator = (role: Role) => roleAllows(role, "moderator");

/**
 * Whether `actor` may suspend `target`: never oneself, never an admin (docs/features/moderation.md), and a moderator
 * not another moderator either — that is an admin's call, who can first change the role.
 */
export function maySuspend(actor: { id: string; role: Role }, target: { id: string; role: Role }): boolean {
  if (actor.id === target.id) return false;
  if (target.role === "admin") return false;
  if (target.role === "moderator") return actor.role === "admin";
  return isModerator(actor.role);
}

/**
 * Whether `actor` may hide or restore content whose author has `authorRole`: a moderator not an
 * admin's (docs/features/moderation.md; that is for another admin to judge), an admin anyone's.
 */
export function mayModerateContentOf(actor: { role: Role }, authorRole: Role): boolean {
  if (!isModerator(actor.role)) return false;
  return authorRole !== "admin" || actor.role === "admin";
}

/** Roles an admin can give through the API: admin is granted only by ADMIN_EMAILS or `npm run admin:grant`. */
export const ASSIGNABLE_ROLES = ["member", "moderator"] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

/** Whether an admin may set `target`'s role: not their own (an admin cannot demote themself by accident), not another admin's. */
export function mayChangeRole(actor: { id: string; role: Role }, target: { id: string; role: Role }): boolean {
  return actor.role === "admin" && actor.id !== target.id && target.role !== "admin";
}
