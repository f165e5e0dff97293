// Accounts and token pairs: register, login, refresh with rotation and reuse detection, logout.
import { db } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { hashPassword, verifyPassword } from "../auth/passwords.ts";
import {
  ACCESS_TOKEN_TTL_SECONDS,
  hashToken,
  newRefreshToken,
  REFRESH_TOKEN_TTL_MS,
  signAccessToken,
} from "../auth/tokens.ts";
import { AppError, notFound, unauthorized } from "../errors.ts";
import { rateLimiter } from "../ratelimit/limiter.ts";
import { agentSelect, toAgent } from "../contract/common.ts";
import type { TokenPair } from "../contract/auth.ts";
import { ACCOUNT_SUSPENDED, admitSignIn, applyAdminEmails } from "./moderation.ts";
import { isSuspended } from "../domain/suspension.ts";
import { getAccount, isRetiredUsername, prepareEmailVerification } from "./accounts.ts";
import { mailAvailable } from "../mail/mailer.ts";
import { log } from "../log/logger.ts";

type Tx = Prisma.TransactionClient;

const emailTaken = () => new AppError("email_taken", "Email already registered");
const usernameTaken = () => new AppError("username_taken", "Username already taken");

export async function register(
  input: {
    email: string;
    password: string;
    username: string;
    display_name?: string;
    automated?: boolean;
  },
  /** The password's hash when the caller already has it (the demo seed: one password, hashed once). */
  known: { passwordHash?: string } = {},
) {
  const usernameKey = input.username.toLowerCase();
  const taken = await db().agent.findFirst({
    where: { OR: [{ email: input.email }, { usernameKey }] },
    select: { email: true },
  });
  if (taken) throw taken.email === input.email ? emailTaken() : usernameTaken();
  // A deleted account's username is never given out again (docs/features/accounts.md).
  if (await isRetiredUsername(input.username)) throw usernameTaken();
  const passwordHash = known.passwordHash ?? (await hashPassword(input.password));
  try {
    const agent = await db().agent.create({
      data: {
        email: input.email,
        username: input.username,
        usernameKey,
        displayName: input.display_name ?? input.username,
        passwordHash,
        automated: input.automated ?? false,
      },
      select: { ...agentSelect, email: true },
    });
    // ADMIN_EMAILS (docs/features/moderation.md): the account is an admin from its first answer on.
    await applyAdminEmails(agent.id);
    const role = (await db().agent.findUnique({ where: { id: agent.id }, select: { role: true } }))?.role ?? agent.role;
    return { ...toAgent({ ...agent, role }), email: agent.email };
  } catch (err) {
    // Two registrations raced past the check above: the unique index decides.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const target = JSON.stringify(err.meta ?? {});
      throw target.includes("email") ? emailTaken() : usernameTaken();
    }
    throw err;
  }
}

/**
 * POST /auth/register as people and programs sign up: the account, then the mail that verifies its
 * address. Its link is stored before the answer (nothing is written after it); the mail itself is sent
 * after (a failure or a spent mail budget never fails the sign-up; without mail nothing is sent). The
 * demo seed calls register() and mails no one.
 */
export async function signUp(input: Parameters<typeof register>[0]) {
  const agent = await register(input);
  if (mailAvailable() && agent.email) {
    const failed = (err: unknown) => log().error({ err: (err as Error).message }, "[auth] sign-up verification mail failed");
    const send = await prepareEmailVerification(agent.id).catch((err: unknown) => void failed(err));
    if (send) void send().catch(failed);
  }
  return agent;
}

const INVALID_LOGIN = () => new AppError("invalid_credentials", "Invalid email or password");

export const TOO_MANY_PASSWORD_FAILURES = "Too many failed sign-in attempts for this account; try again later";

/**
 * The agent these credentials belong to, or null (API login and the web UI's sign-in share this).
 * Guessing is bounded per account and client (docs/security.md, "Limits"): a client that failed too
 * often on this account is refused (429) before any comparison, and each wrong password is counted.
 */
export async function verifyCredentials(input: { email: string; password: string }, client: string): Promise<{ id: string } | null> {
  const limiter = rateLimiter();
  if (!(await limiter.passwordTryAllowed(input.email, client)).success) throw new AppError("too_many_password_failures", TOO_MANY_PASSWORD_FAILURES);
  const agent = await db().agent.findUnique({
    where: { email: input.email },
    select: { id: true, passwordHash: true },
  });
  // Always run one bcrypt comparison, so unknown emails take as long as wrong passwords.
  const ok = await verifyPassword(input.password, agent?.passwordHash);
  if (agent && ok) return { id: agent.id };
  await limiter.recordPasswordFailure(input.email, client);
  return null;
}

export async function login(input: { email: string; password: string }, client: string): Promise<TokenPair> {
  const agent = await verifyCredentials(input, client);
  if (!agent) throw INVALID_LOGIN();
  // A suspended agent: 403 `Account suspended` (only after the password matched: no enumeration).
  await admitSignIn(agent.id);
  return issueTokenPair(agent.id);
}

/** Dead families deleted per login at most: the statement stays short however large the backlog. */
export const FAMILY_PRUNE_BATCH = 100;

/**
 * Deletes up to FAMILY_PRUNE_BATCH refresh-token families (their tokens go with them, ON DELETE
 * CASCADE) that have been expired or revoked for longer than an access token lives. By then nothing
 * they issued can work: their refresh tokens were refused anyway (an unknown token is refused the
 * same way) and their last access token has expired. Live families are never touched, so every used
 * token that reuse detection needs is kept for as long as its family could still rotate.
 *
 * It runs on every new family (a login): only logins add families, and each removes up to 100 dead
 * ones, so the table stays bounded by the live logins without a timer or a second process. SKIP
 * LOCKED: two logins pruning at once take different rows instead of waiting for each other.
 */
export async function pruneTokenFamilies(tx: Tx = db(), now = new Date()): Promise<number> {
  const deadBefore = new Date(now.getTime() - ACCESS_TOKEN_TTL_SECONDS * 1000);
  return tx.$executeRaw`
    DELETE FROM refresh_token_families WHERE id IN (
      SELECT id FROM refresh_token_families WHERE expires_at < ${deadBefore} OR revoked_at < ${deadBefore}
      LIMIT ${FAMILY_PRUNE_BATCH}
      FOR UPDATE SKIP LOCKED
    )`;
}

/**
 * Why this agent may not be given credentials for a sign-in made at `signedInAt`, or null when it
 * may. Every way to a token pair asks (login, the OAuth hand-off and its code exchange, refresh): a
 * suspended agent gets none, and neither does a sign-in from before its sessions were revoked (a
 * suspension revokes them), so nothing minted around a suspension outlives it.
 */
export async function credentialsRefused(agentId: string, signedInAt: Date, tx: Tx = db()): Promise<"suspended" | "revoked" | "gone" | null> {
  const agent = await tx.agent.findUnique({ where: { id: agentId }, select: { suspendedAt: true, suspendedUntil: true, sessionsValidAfter: true } });
  if (!agent) return "gone";
  if (isSuspended(agent)) return "suspended";
  if (agent.sessionsValidAfter && signedInAt < agent.sessionsValidAfter) return "revoked";
  return null;
}

/** Starts a new token family (a login) and returns its first pair. */
export async function issueTokenPair(agentId: string, tx: Tx = db()): Promise<TokenPair> {
  const refused = await credentialsRefused(agentId, new Date(), tx);
  if (refused === "suspended") throw new AppError("account_suspended", ACCOUNT_SUSPENDED);
  if (refused) throw unauthorized();
  await pruneTokenFamilies(tx);
  const family = await tx.refreshTokenFamily.create({
    data: { agentId, expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS) },
    select: { id: true },
  });
  const refresh = newRefreshToken();
  await tx.refreshToken.create({ data: { tokenHash: refresh.hash, familyId: family.id } });
  return tokenPair(agentId, family.id, refresh.token);
}

async function tokenPair(agentId: string, familyId: string, refreshToken: string): Promise<TokenPair> {
  return {
    access_token: await signAccessToken({ agentId, familyId }),
    refresh_token: refreshToken,
    token_type: "bearer",
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
  };
}

/**
 * Rotation: the presented token is marked used by one conditional UPDATE, so of two concurrent
 * refreshes exactly one can win. Presenting a token that was already used (or revoked) is treated as
 * theft: the whole family dies, including the token the legitimate holder has. A known token of a
 * suspended agent answers 403 `Account suspended`, whatever else is wrong with it (a suspension
 * revokes the family too), so the client learns why rather than retrying a login.
 */
export async function refresh(presented: string): Promise<TokenPair> {
  const tokenHash = hashToken(presented);
  const now = new Date();
  const outcome = await db().$transaction(async (tx) => {
    const claimed = await tx.refreshToken.updateMany({
      where: { tokenHash, usedAt: null, revokedAt: null },
      data: { usedAt: now },
    });
    const token = await tx.refreshToken.findUnique({
      where: { tokenHash },
      select: { id: true, family: { select: { id: true, agentId: true, expiresAt: true, revokedAt: true, createdAt: true } } },
    });
    if (!token) return { ok: false as const };
    const { family } = token;
    // The login it continues must still be good: not suspended now, not from before a revocation.
    const refused = await credentialsRefused(family.agentId, family.createdAt, tx);
    const suspended = refused === "suspended";
    if (claimed.count === 0) {
      await tx.refreshTokenFamily.update({ where: { id: family.id }, data: { revokedAt: family.revokedAt ?? now } });
      return { ok: false as const, suspended };
    }
    if (family.revokedAt || family.expiresAt <= now) return { ok: false as const, suspended };
    if (refused) {
      await tx.refreshTokenFamily.update({ where: { id: family.id }, data: { revokedAt: now } });
      return { ok: false as const, suspended };
    }
    const next = newRefreshToken();
    await tx.refreshToken.create({ data: { tokenHash: next.hash, familyId: family.id, parentId: token.id } });
    return { ok: true as const, agentId: family.agentId, familyId: family.id, token: next.token };
  });
  if (!outcome.ok) throw "suspended" in outcome && outcome.suspended ? new AppError("account_suspended", ACCOUNT_SUSPENDED) : unauthorized();
  return tokenPair(outcome.agentId, outcome.familyId, outcome.token);
}

/** Revokes the family of the presented refresh token (and so every access token of that login). */
export async function logout(presented: string): Promise<void> {
  const token = await db().refreshToken.findUnique({
    where: { tokenHash: hashToken(presented) },
    select: { familyId: true },
  });
  if (!token) return;
  await db().refreshTokenFamily.updateMany({
    where: { id: token.familyId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}

export async function me(agentId: string) {
  return getAccount(agentId);
}
