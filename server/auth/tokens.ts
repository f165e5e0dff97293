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

/** Verifies an access token; returns null for anything malformed, forged, expired or of the wrong kind. */
export async function verifyAccessToken(token: string): Promise<AccessTokenClaims | null> {
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
    return { agentId: payload.sub, familyId: payload.fid };
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
