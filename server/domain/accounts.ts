// Rules of the accounts people manage (docs/features/accounts.md): how long mailed links live, the
// tombstone that keeps what deleted accounts wrote, and who ADMIN_EMAILS may make an admin.

/** A password-reset link works once, within an hour. */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
/** An email-verification link works once, within a day. */
export const EMAIL_VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;
/** Mailed tokens carry 256 random bits: `pr_` / `ev_` + 43 base64url characters. */
export const ACCOUNT_TOKEN_BYTES = 32;
export const ACCOUNT_TOKEN_PREFIX = { password_reset: "pr_", email_verification: "ev_" } as const;
export type AccountTokenPurpose = keyof typeof ACCOUNT_TOKEN_PREFIX;

/** The agent that claims, evidence and comments of deleted accounts are attributed to. */
export const TOMBSTONE_AGENT_ID = "00000000-0000-4000-8000-000000000001";
export const TOMBSTONE_USERNAME = "deleted";
export const TOMBSTONE_DISPLAY_NAME = "Deleted account";
/** Outside the username alphabet: no registration can ever collide with it. */
export const TOMBSTONE_USERNAME_KEY = "~deleted";

export const isTombstone = (agentId: string) => agentId === TOMBSTONE_AGENT_ID;
