// NextAuth's session cookie: whether it is `Secure`, and so its name.
import type { Config } from "../config.ts";

/**
 * Whether the session cookies are `Secure` (and `__Secure-` prefixed). Production means HTTPS, whether
 * or not NEXTAUTH_URL says so (a password-only deployment need not set it): secure in production unless
 * NEXTAUTH_URL explicitly names plain http on a loopback host (a local production run, the e2e tests);
 * outside production, only when NEXTAUTH_URL is https.
 */
export function useSecureCookies(cfg: Pick<Config, "NODE_ENV" | "NEXTAUTH_URL">): boolean {
  const url = cfg.NEXTAUTH_URL ? new URL(cfg.NEXTAUTH_URL) : undefined;
  if (url?.protocol === "https:") return true;
  if (cfg.NODE_ENV !== "production") return false;
  const loopback = url?.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  return !loopback;
}

export function sessionCookieName(cfg: Config): string {
  return useSecureCookies(cfg) ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}
