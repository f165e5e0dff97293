// ADMIN_EMAILS: the one rule for whether an address on that list makes its account an admin. Only a
// verified address does: anyone can register any address with a password, and an unverified
// registration of an administrator's address must not become an admin (docs/security.md).

export function adminGrantAllowed(email: string | null | undefined, verified: boolean, adminEmails: readonly string[]): boolean {
  if (!email || !verified) return false;
  return adminEmails.includes(email.trim().toLowerCase());
}
