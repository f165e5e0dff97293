// API key material (docs/api.md#api-keys): `clm_` + 40 base62 characters from the system's CSPRNG.
//
// Only a SHA-256 of the key is stored. A fast hash is right here, unlike for passwords: the secret is
// 40 uniformly random base62 characters (≈238 bits), so an attacker holding the hashes cannot search
// the key space however fast the hash is, and a slow KDF (bcrypt, scrypt) would only cost CPU on
// every authenticated request. Requests find the row by the key's first 12 characters (a unique
// index) and compare the hashes in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const API_KEY_PREFIX = "clm_";
export const API_KEY_SECRET_LENGTH = 40;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + API_KEY_SECRET_LENGTH;
/** The part of a key that is stored in clear and shown in lists: `clm_` + 8 characters. */
export const API_KEY_LOOKUP_LENGTH = 12;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${API_KEY_SECRET_LENGTH}}$`);

/** `length` base62 characters, unbiased: bytes ≥ 248 (4 × 62) are rejected, not folded. */
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export interface NewApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateApiKey(): NewApiKey {
  const key = API_KEY_PREFIX + randomBase62(API_KEY_SECRET_LENGTH);
  return { key, prefix: lookupPrefix(key), hash: hashApiKey(key) };
}

/** Whether a bearer credential is shaped like one of our keys (anything else is not looked up). */
export function looksLikeApiKey(credential: string): boolean {
  return credential.startsWith(API_KEY_PREFIX);
}

export function isWellFormedApiKey(credential: string): boolean {
  return KEY_PATTERN.test(credential);
}

export function lookupPrefix(key: string): string {
  return key.slice(0, API_KEY_LOOKUP_LENGTH);
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Constant-time comparison of a presented key against a stored hash. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const presented = Buffer.from(hashApiKey(key), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
