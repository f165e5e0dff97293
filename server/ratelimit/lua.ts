import { createHash } from "node:crypto";

/**
 * @upstash/ratelimit's Lua scripts start with the Upstash-specific shebang
 * `#!lua flags=allow-key-locking`. Upstash accepts it; a self-hosted Redis 7.0 rejects it
 * ("ERR Unexpected flag in script shebang: allow-key-locking"). Without a shebang the script runs in
 * Redis' default (pre-7.0 compatible) mode, which is all these scripts need.
 *
 * The library calls `evalsha(<sha1 of the ORIGINAL script>, ...)` with hashes hard-coded in its
 * source, so after stripping we remember which stripped script (and its own sha1) stands for which
 * original hash.
 */
export interface PreparedScript {
  /** sha1 of the script as the library knows it (the hash it passes to evalsha) */
  originalSha: string;
  /** the script as sent to Redis (shebang removed) */
  script: string;
  /** sha1 of `script` (the hash Redis knows it by once loaded) */
  sha: string;
}

export function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

const SHEBANG = /^#![^\n]*\n/;

export function stripShebang(script: string): string {
  return script.replace(SHEBANG, "");
}

export function prepareScript(script: string): PreparedScript {
  const stripped = stripShebang(script);
  return { originalSha: sha1(script), script: stripped, sha: sha1(stripped) };
}

export function isNoScriptError(err: unknown): boolean {
  return `${(err as { message?: unknown })?.message ?? err}`.includes("NOSCRIPT");
}

/** The argument serialisation of @upstash/redis (numbers/strings as is, objects as JSON). */
export function serializeArg(a: unknown): string | number {
  if (typeof a === "string" || typeof a === "number") return a;
  if (a === null || a === undefined) return "";
  if (typeof a === "boolean") return String(a);
  return JSON.stringify(a);
}
