// Access tokens (JWT, HS256 pinned) and opaque refresh tokens (docs/api.md#sign-in).
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { isUuid } from "../contract/common.ts";
import { config } from "../config.ts";

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;
export const TOKEN_ISSUER = "claims-service";
export const TOKEN_AUDIENCE = "claims-api";
const ACCESS_TOKEN_TYPE = "at+jwt";
const ALGORITHM = "HS256";

let cachedKey: { secret: string; key: Uint8Array } | undefined;
function signingKey(): Uint8Array {
  const secret = config().JWT_SECRET;
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: new TextEncoder().encode(secret) };
  return cachedKey.key;
}

export interface AccessTokenClaims {
  agentId: string;
  /** The refresh-token family (login) this access token belongs to: logout revokes both. */
  familyId: string;
}

export async function signAccessToken(claims: AccessTokenClaims, now = new Date()): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ fid: claims.familyId })
    .setProtectedHeader({ alg: ALGORITHM, typ: ACCESS_TOKEN_TYPE })
    .setSubject(claims.agentId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .setJti(randomUUID())
    .sign(signingKey());
}

/**
 * Tokens whose signature and claims were verified, until they expire: an agent calling the API sends
 * the same token many times, and the HMAC check through WebCrypto was 6–10 % of a vote's CPU
 * (docs/benchmarks/2026-11-25-api-and-votes.md). Keyed by the whole token, signature included, so only
 * a token verified before is ever answered from here; revocation is not decided here (the caller
 * looks the token's family up on every request). Bounded; the oldest entry goes first.
 */
const VERIFIED_MAX = 10_000;
const verified = new Map<string, { secret: string; exp: number; claims: AccessTokenClaims }>();

/** Verifies an access token; returns null for anything malformed, forged, expired or of the wrong kind. */
export async function verifyAccessToken(token: string): Promise<AccessTokenClaims | null> {
  const known = verified.get(token);
  if (known) {
    if (known.secret === config().JWT_SECRET && known.exp > Date.now() / 1000) return { ...known.claims };
    verified.delete(token);
  }
  const claims = await verifySignedToken(token);
  if (claims) {
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, { secret: config().JWT_SECRET, exp: claims.exp, claims: { agentId: claims.agentId, familyId: claims.familyId } });
    return { agentId: claims.agentId, familyId: claims.familyId };
  }
  return null;
}

async function verifySignedToken(token: string): Promise<(AccessTokenClaims & { exp: number }) | null> {
  try {
    const { payload } = await jwtVerify(token, signingKey(), {
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      typ: ACCESS_TOKEN_TYPE,
      requiredClaims: ["exp", "iat", "jti", "sub"],
    });
    // Both are looked up as uuids: anything else is not one of ours (and must not reach the query).
    if (typeof payload.sub !== "string" || typeof payload.fid !== "string" || !isUuid(payload.sub) || !isUuid(payload.fid)) return null;
    return { agentId: payload.sub, familyId: payload.fid, exp: payload.exp! };
  } catch {
    return null;
  }
}

/** An opaque refresh token: 256 random bits. Only its SHA-256 is stored. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = `rt_${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
