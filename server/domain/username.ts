// Usernames for accounts created by an OAuth sign-in: derived from what the provider tells us (a
// GitHub login, a Twitter handle, a name, an email's local part) and shaped to the registration rule,
// 3–30 of [A-Za-z0-9_] (docs/api.md#sign-in). Uniqueness is the caller's job: it tries the candidates below.

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;
export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,30}$/;
const FALLBACK = "user";

/** "José García" → "Jose_Garcia", "jane.doe+x" → "jane_doe_x"; "" when nothing usable is left. */
function sanitizeUsername(hint: string): string {
  return hint
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // accents off their letters
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/_{2,}/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, USERNAME_MAX_LENGTH);
}

/** The first hint that yields something usable, padded to the minimum length; "user" when none does. */
export function usernameFromHints(hints: ReadonlyArray<string | null | undefined>): string {
  for (const hint of hints) {
    if (!hint) continue;
    const name = sanitizeUsername(hint);
    if (name.length >= USERNAME_MIN_LENGTH) return name;
    if (name.length > 0) return `${name}_${FALLBACK}`;
  }
  return FALLBACK;
}

/** `base_suffix`, with the base shortened so the whole stays within 30 characters. */
function withUsernameSuffix(base: string, suffix: string): string {
  return `${base.slice(0, USERNAME_MAX_LENGTH - suffix.length - 1)}_${suffix}`;
}

/**
 * Names to try in order: the base itself, then the base with random suffixes (4 digits, then 8 hex
 * characters), so a popular login like "alex" still finds a free name in one query.
 */
export function usernameCandidates(base: string, random: () => number = Math.random): string[] {
  const digits = () => String(Math.floor(random() * 10_000)).padStart(4, "0");
  const hex = () => Math.floor(random() * 0xffffffff).toString(16).padStart(8, "0");
  return [base, ...Array.from({ length: 4 }, () => withUsernameSuffix(base, digits())), withUsernameSuffix(base, hex())];
}
