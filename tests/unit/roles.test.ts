// Who may moderate whom (docs/features/moderation.md): pure rules.
import { describe, expect, it } from "vitest";
import { mayChangeRole, maySuspend, roleAllows } from "../../server/domain/roles.ts";

const member = { id: "m", role: "member" as const };
const mod = { id: "d", role: "moderator" as const };
const mod2 = { id: "d2", role: "moderator" as const };
const admin = { id: "a", role: "admin" as const };
const admin2 = { id: "a2", role: "admin" as const };

describe("roles", () => {
  it("orders member < moderator < admin", () => {
    expect(roleAllows("member", "moderator")).toBe(false);
    expect(roleAllows("moderator", "moderator")).toBe(true);
    expect(roleAllows("admin", "moderator")).toBe(true);
    expect(roleAllows("moderator", "admin")).toBe(false);
  });

  it("lets moderators suspend members, admins suspend moderators, and nobody suspend admins or themselves", () => {
    expect(maySuspend(mod, member)).toBe(true);
    expect(maySuspend(member, member)).toBe(false);
    expect(maySuspend(mod, mod2)).toBe(false);
    expect(maySuspend(admin, mod)).toBe(true);
    expect(maySuspend(admin, admin2)).toBe(false);
    expect(maySuspend(mod, mod)).toBe(false);
    expect(maySuspend(mod, admin)).toBe(false);
  });

  it("lets only admins change roles, not their own nor another admin's", () => {
    expect(mayChangeRole(admin, member)).toBe(true);
    expect(mayChangeRole(admin, mod)).toBe(true);
    expect(mayChangeRole(mod, member)).toBe(false);
    expect(mayChangeRole(admin, admin)).toBe(false);
    expect(mayChangeRole(admin, admin2)).toBe(false);
  });
});
