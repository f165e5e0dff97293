// OAuth sign-in for API clients (docs/api.md#sign-in; started by nextauth/sign-in.ts): after it, hand the
// browser a one-time code that POST /auth/oauth/exchange turns into a token pair. Codes live 60
// seconds, work once, and only their SHA-256 is stored, so tokens never travel in a URL.
import { randomBytes } from "node:crypto";
import { unauthorized } from "../errors.ts";
import type { TokenPair } from "../contract/auth.ts";
import { SIGN_IN_PAGE } from "../auth/pages.ts";
import { withQueryParam } from "../domain/redirect.ts";
import { hashToken } from "../auth/tokens.ts";
import { db } from "../db/client.ts";
import { credentialsRefused, issueTokenPair } from "./auth.ts";

export const EXCHANGE_CODE_TTL_MS = 60_000;
/** How recent the web sign-in must be for the hand-off to mint a code. */
export const HAND_OFF_MAX_AGE_SECONDS = 120;

/** A new one-time code for the agent (the plaintext goes to the browser; the hash is stored). */
export async function createExchangeCode(agentId: string, now = new Date()): Promise<string> {
  const code = `oc_${randomBytes(32).toString("base64url")}`;
  await db().$transaction([
    // Keep the table small: this agent's spent and expired codes are of no further use.
    db().oAuthExchangeCode.deleteMany({ where: { agentId, OR: [{ usedAt: { not: null } }, { expiresAt: { lt: now } }] } }),
    db().oAuthExchangeCode.create({
      data: { codeHash: hashToken(code), agentId, expiresAt: new Date(now.getTime() + EXCHANGE_CODE_TTL_MS) },
    }),
  ]);
  return code;
}

const invalidCode = () => unauthorized("Invalid or expired code");

/** The token pair for a code; the code is spent by one conditional UPDATE, so it works exactly once. */
export async function exchangeCode(code: string): Promise<TokenPair> {
  const codeHash = hashToken(code);
  const pair = await db().$transaction(async (tx) => {
    const now = new Date();
    const claimed = await tx.oAuthExchangeCode.updateMany({
      where: { codeHash, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (claimed.count !== 1) return null;
    const row = await tx.oAuthExchangeCode.findUniqueOrThrow({ where: { codeHash }, select: { agentId: true, createdAt: true } });
    // A code from before the agent's sessions were revoked is spent for nothing; a suspended agent
    // is told so (issueTokenPair).
    if ((await credentialsRefused(row.agentId, row.createdAt, tx)) === "revoked") return null;
    return issueTokenPair(row.agentId, tx);
  });
  if (!pair) throw invalidCode();
  return pair;
}

/**
 * Where the hand-off sends a browser that has just signed in: `redirectTo` with `?code=`. A session
 * older than a couple of minutes gets no code (it did not come from a sign-in that just happened).
 */
export async function handOffLocation(
  session: { agentId: string; authTime: number | null } | null,
  redirectTo: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<string> {
  if (!session || session.authTime === null || nowSeconds - session.authTime > HAND_OFF_MAX_AGE_SECONDS) {
    return withQueryParam(SIGN_IN_PAGE, "redirect_to", redirectTo);
  }
  // The session must still be good: not suspended, not signed in before its sessions were revoked.
  if (await credentialsRefused(session.agentId, new Date(session.authTime * 1000))) {
    return withQueryParam(SIGN_IN_PAGE, "redirect_to", redirectTo);
  }
  const code = await createExchangeCode(session.agentId);
  return withQueryParam(redirectTo, "code", code);
}
