// The session → identity bridge: the web UI's caller is the agent of the NextAuth session cookie.
// getToken is handed a minimal request carrying only the cookies (tests/unit/library-internals.test.ts
// checks it still reads them from there and nothing else).
import "server-only";
import { getToken } from "next-auth/jwt";
import { isUuid } from "../contract/common.ts";
import { config } from "../config.ts";
import { dbReady } from "../db/client.ts";
import { ANONYMOUS, identityOfAgent, type Identity } from "../auth/identity.ts";
import { sessionCookieName } from "./cookies.ts";

export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function cookieHeader(headers: HeaderBag): string {
  const value = headers instanceof Headers ? headers.get("cookie") : headers.cookie ?? headers.Cookie;
  return Array.isArray(value) ? value.join("; ") : (value ?? "");
}

function parseCookies(header: string): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    try {
      cookies[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      cookies[name] = part.slice(eq + 1).trim();
    }
  }
  return cookies;
}

export interface WebSession {
  agentId: string;
  /** Unix seconds of the sign-in that created the session. */
  authTime: number | null;
  /** The session id (sessions row); absent on sessions signed in before web sessions were kept. */
  sessionId?: string;
}

/** The request handed to next-auth's getToken: only the cookies, so a Bearer header is never read as a session. */
export function cookieOnlyRequest(cookies: Record<string, string>): Parameters<typeof getToken>[0]["req"] {
  return { cookies, headers: {} } as never;
}

/** The NextAuth session carried by the request's cookies, or null (absent, forged, expired). */
export async function readNextAuthSession(headers: HeaderBag): Promise<WebSession | null> {
  const cfg = config();
  const token = await getToken({
    req: cookieOnlyRequest(parseCookies(cookieHeader(headers))),
    secret: cfg.NEXTAUTH_SECRET,
    cookieName: sessionCookieName(cfg),
  });
  if (!token?.sub || !isUuid(token.sub)) return null;
  return {
    agentId: token.sub,
    authTime: typeof token.authTime === "number" ? token.authTime : null,
    ...(typeof token.sid === "string" ? { sessionId: token.sid } : {}),
  };
}

/** The web UI's caller: the agent of the NextAuth session, or anonymous. For the web tRPC context. */
export async function identityFromNextAuthRequest(headers: HeaderBag): Promise<Identity> {
  const session = await readNextAuthSession(headers);
  if (!session) return ANONYMOUS;
  await dbReady();
  // A session without a sign-in time predates it: it counts as signed in at the epoch.
  return identityOfAgent(session.agentId, session.authTime ?? 0, session.sessionId);
}
