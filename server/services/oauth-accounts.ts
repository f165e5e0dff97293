// Who an OAuth sign-in is: the agent already linked to that provider account, or an existing agent
// found by a verified email, or a new agent (docs/api.md#sign-in).
//
// Email rules, in one place:
// - Only an email the provider says is verified is used at all (for linking and as the new account's
//   email). An unverified one is dropped: such accounts are created without an email.
// - Linking by email also needs the existing account's email to have been verified, i.e. it came from a
//   provider. Password accounts never proved their email: linking into one would let whoever registered
//   someone else's address first take over that person's OAuth sign-in (account pre-hijacking), so the
//   sign-in is refused instead and the person is told to use their password.
// - Provider tokens are not stored: nothing here calls the providers after sign-in.
import { withoutInvisibleCharacters } from "../domain/display-name.ts";
import { db } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import type { OAuthProviderId } from "../auth/oauth-providers.ts";
import { emailSchema } from "../contract/auth.ts";
import { hashToken } from "../auth/tokens.ts";
import { usernameCandidates, usernameFromHints } from "../domain/username.ts";

export interface ProviderIdentity {
  provider: OAuthProviderId;
  providerAccountId: string;
  /** The email only when the provider vouches for it; null otherwise (Twitter never gives one). */
  verifiedEmail: string | null;
  name: string | null;
  image: string | null;
  /** Username material, best first: a login or handle, then a name or an email's local part. */
  usernameHints: ReadonlyArray<string | null | undefined>;
  scope?: string | null;
}

export type OAuthSignInOutcome =
  | { kind: "agent"; agentId: string; created: boolean; linked: boolean }
  /** The verified email belongs to a password account whose email was never verified. */
  | { kind: "email-needs-password-sign-in" };

const MAX_DISPLAY_NAME = 100;
const MAX_AVATAR_URL = 2048;
const ATTEMPTS = 3;

export async function agentIdForProviderAccount({ provider, providerAccountId }: { provider: string; providerAccountId: string }): Promise<string | null> {
  const account = await db().account.findUnique({
    where: { provider_providerAccountId: { provider, providerAccountId } },
    select: { agentId: true },
  });
  return account?.agentId ?? null;
}

export async function signInWithProvider(identity: ProviderIdentity): Promise<OAuthSignInOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await resolve(identity);
    } catch (err) {
      // A concurrent sign-in created the same account, email or username first: look again.
      const uniqueViolation = err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
      if (!uniqueViolation || attempt >= ATTEMPTS) throw err;
    }
  }
}

async function resolve(identity: ProviderIdentity): Promise<OAuthSignInOutcome> {
  const { provider, providerAccountId } = identity;
  const linkedAgentId = await agentIdForProviderAccount({ provider, providerAccountId });
  if (linkedAgentId) return { kind: "agent", agentId: linkedAgentId, created: false, linked: false };

  const account = { type: "oauth", provider, providerAccountId, scope: identity.scope ?? null };
  const email = normalizedEmail(identity.verifiedEmail);
  if (email) {
    const owner = await db().agent.findUnique({ where: { email }, select: { id: true, emailVerified: true } });
    if (owner) {
      if (!owner.emailVerified) return { kind: "email-needs-password-sign-in" };
      await db().account.create({ data: { ...account, agentId: owner.id } });
      return { kind: "agent", agentId: owner.id, created: false, linked: true };
    }
  }

  const username = await freeUsername(usernameFromHints(identity.usernameHints));
  const agent = await db().agent.create({
    data: {
      email,
      emailVerified: email ? new Date() : null,
      username,
      usernameKey: username.toLowerCase(),
      displayName: displayName(identity.name) ?? username,
      avatarUrl: avatarUrl(identity.image),
      accounts: { create: account },
    },
    select: { id: true },
  });
  return { kind: "agent", agentId: agent.id, created: true, linked: false };
}

/** The first candidate nobody has (case-insensitively); the unique index settles races. */
async function freeUsername(base: string): Promise<string> {
  const candidates = usernameCandidates(base);
  const taken = await db().agent.findMany({
    where: { usernameKey: { in: candidates.map((c) => c.toLowerCase()) } },
    select: { usernameKey: true },
  });
  // Usernames of deleted accounts are never given out again (docs/features/accounts.md).
  const retired = await db().retiredUsername.findMany({
    where: { keyHash: { in: candidates.map((c) => hashToken(c.toLowerCase())) } },
    select: { keyHash: true },
  });
  const retiredHashes = new Set(retired.map((r) => r.keyHash));
  const takenKeys = new Set([
    ...taken.map((t) => t.usernameKey),
    ...candidates.filter((c) => retiredHashes.has(hashToken(c.toLowerCase()))).map((c) => c.toLowerCase()),
  ]);
  return candidates.find((c) => !takenKeys.has(c.toLowerCase())) ?? candidates[candidates.length - 1];
}

function normalizedEmail(value: string | null): string | null {
  if (!value) return null;
  const parsed = emailSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function displayName(name: string | null): string | null {
  // A provider's name is not refused, but it loses what would make it display as something else.
  const trimmed = name === null ? undefined : withoutInvisibleCharacters(name).trim();
  return trimmed ? Array.from(trimmed).slice(0, MAX_DISPLAY_NAME).join("") : null;
}

function avatarUrl(image: string | null): string | null {
  if (!image || image.length > MAX_AVATAR_URL) return null;
  try {
    const url = new URL(image);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}
