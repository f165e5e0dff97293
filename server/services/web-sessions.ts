// Web sessions kept on the server (docs/features/accounts.md). NextAuth's session is a signed,
// encrypted cookie that cannot be recalled; each sign-in therefore also writes a sessions row keyed by
// the SHA-256 of a random session id carried inside the cookie, and a session is good only while its
// row exists (server/auth/identity.ts). Signing out deletes the row: a copied cookie stops working.
import { randomBytes } from "node:crypto";
import { db } from "../db/client.ts";
import { hashToken } from "../auth/tokens.ts";

/** As long as NextAuth's own session cookie lives. */
export const WEB_SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

/** A new session for the agent: its id goes into the cookie, its hash into the sessions table. */
export async function startWebSession(agentId: string, now = new Date()): Promise<string> {
  const sessionId = randomBytes(32).toString("base64url");
  await db().$transaction([
    // The agent's expired rows are of no further use: each sign-in clears them.
    db().session.deleteMany({ where: { agentId, expires: { lt: now } } }),
    db().session.create({
      data: { sessionToken: hashToken(sessionId), agentId, expires: new Date(now.getTime() + WEB_SESSION_TTL_MS) },
    }),
  ]);
  return sessionId;
}

/** Signing out: the session's row goes, whatever copies of its cookie exist. */
export async function endWebSession(sessionId: string): Promise<void> {
  await db().session.deleteMany({ where: { sessionToken: hashToken(sessionId) } });
}
