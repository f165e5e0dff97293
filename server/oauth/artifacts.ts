// The authorization server's storage (docs/features/mcp.md#oauth, "Storage and keys"): everything the
// provider issues — clients, grants, codes, tokens, interactions, sessions — is one row of
// mcp_oauth_artifacts (kind, id, JSON payload, expiry), so every instance answers for every token. An
// artifact counts only while it is live, and while what it stands on does: its account's cut-off (a
// password reset, "sign out everywhere", a suspension) and, for what is issued under a grant, the grant.
import { errors, type Adapter, type AdapterPayload } from "oidc-provider";
import { Prisma } from "../db/generated/client.ts";
import { db, readSql } from "../db/client.ts";
import { isStorableText } from "../domain/text-guard.ts";
import { logError } from "../log/logger.ts";
import { processSingleton } from "../process-singleton.ts";

const DAY = 24 * 60 * 60;
/**
 * A registered client nobody uses expires (docs/features/mcp.md#oauth, "Lifetimes"): 7 days after its
 * registration while no one has granted it anything (clients register on every connect), then 30 days
 * after its last use (a grant, a code, a token, a refresh), and never before a grant given to it ends.
 */
export const CLIENT_NEVER_USED_TTL = 7 * DAY;
export const CLIENT_UNUSED_TTL = 30 * DAY;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Row = { payload: AdapterPayload; consumed_at: Date | null };

/** Artifacts issued for a client: saving one is a use of the client, which keeps it (CLIENT_UNUSED_TTL). */
const ISSUED_FOR_A_CLIENT = new Set(["Grant", "AuthorizationCode", "AccessToken", "RefreshToken"]);

function found(row: Row | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  return row.consumed_at ? { ...row.payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) } : row.payload;
}

/**
 * Whether an artifact (`artifact`, an alias of mcp_oauth_artifacts) was made before its account's
 * cut-off, agents.sessions_valid_after (a completed password reset, "sign out everywhere", a
 * suspension), by its own time (`madeAt`, Unix seconds in its payload). Those actions delete the
 * account's rows, but the provider saves by upsert: a request that had loaded a row before writes it
 * back when it ends (the browser's session on every request; a grant and an answered consent from a
 * consent page being answered). What was made before the cut-off stays ended all the same. Whole
 * seconds, as web sessions are judged (docs/security.md#which-action-ends-which-credential).
 */
export const madeBeforeCutOff = (artifact: string, madeAt: string) =>
  Prisma.raw(`EXISTS (
    SELECT 1 FROM agents cut WHERE cut.id = ${artifact}.agent_id
      AND cut.sessions_valid_after > to_timestamp((${artifact}.${madeAt})::double precision))`);

/** When each kind was made: a session's sign-in, an answered consent's sign-in (finishConsent), a grant's first save. */
export const MADE_AT: Record<string, string> = {
  Session: "payload->>'loginTs'",
  Interaction: "payload->'result'->'login'->>'ts'",
  Grant: "payload->>'iat'",
};

/** What is issued under a grant (grant_id): it stands only while its grant does. */
const ISSUED_UNDER_A_GRANT = new Set(["AccessToken", "RefreshToken", "AuthorizationCode"]);

/**
 * What a stored artifact of `kind` needs besides a live row to count, checked in its own look-up (one
 * statement): a session, an answered consent and a grant, not to predate the account's cut-off; a
 * token or code, a grant that counts — a token minted by a request in flight as its grant was deleted
 * (a refresh) is written after the deletion and would otherwise outlive it.
 */
function stillStanding(kind: string): Prisma.Sql {
  if (MADE_AT[kind]) return Prisma.sql`NOT ${madeBeforeCutOff("m", MADE_AT[kind])}`;
  if (ISSUED_UNDER_A_GRANT.has(kind)) {
    return Prisma.sql`EXISTS (
      SELECT 1 FROM mcp_oauth_artifacts g
      WHERE g.kind = 'Grant' AND g.id = m.grant_id AND (g.expires_at IS NULL OR g.expires_at > now())
        AND NOT ${madeBeforeCutOff("g", MADE_AT.Grant)})`;
  }
  // A registration access token reads its client's registration while the client lives.
  if (kind === "RegistrationAccessToken") {
    return Prisma.sql`EXISTS (
      SELECT 1 FROM mcp_oauth_artifacts c
      WHERE c.kind = 'Client' AND c.id = m.payload->>'clientId' AND (c.expires_at IS NULL OR c.expires_at > now()))`;
  }
  return Prisma.sql`TRUE`;
}

export class DbAdapter implements Adapter {
  constructor(private readonly kind: string) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    // Every parameter was checked on the way in (endpoint.ts, refuseUnfitParameters); this is the last word before
    // the database, which cannot store a NUL or an unpaired surrogate: a 400, never a failed INSERT.
    const unfit = !isStorableText(id) ? "id" : firstUnstorableString(payload);
    if (unfit) throw new errors.InvalidRequest(`${unfit}: must not contain control characters`);
    const now = Date.now();
    // The provider gives a client no lifetime; ours starts at its registration. A registration access
    // token has none of its own either: it lives as long as its client (stillStanding), and goes with it.
    const lifetime = this.kind === "Client" ? CLIENT_NEVER_USED_TTL : this.kind === "RegistrationAccessToken" ? undefined : expiresIn;
    const expiresAt = lifetime ? new Date(now + lifetime * 1000) : null;
    // The person it speaks for: an answered consent names them in its result only.
    const person = this.kind === "Interaction" ? (payload.result as { login?: { accountId?: unknown } } | undefined)?.login?.accountId : payload.accountId;
    const accountId = typeof person === "string" && UUID.test(person) ? person : null;
    const json = JSON.stringify(payload);
    await db().$executeRaw`
      INSERT INTO mcp_oauth_artifacts (kind, id, payload, grant_id, uid, user_code, agent_id, expires_at)
      VALUES (${this.kind}, ${id}, ${json}::jsonb, ${payload.grantId ?? null}, ${payload.uid ?? null}, ${payload.userCode ?? null},
              ${accountId}::uuid, ${expiresAt})
      ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
        user_code = EXCLUDED.user_code, agent_id = EXCLUDED.agent_id, expires_at = EXCLUDED.expires_at`;
    if (ISSUED_FOR_A_CLIENT.has(this.kind) && typeof payload.clientId === "string") {
      // A use of the client: it lives CLIENT_UNUSED_TTL from now, and at least as long as what was issued.
      const unusedUntil = new Date(now + CLIENT_UNUSED_TTL * 1000);
      await db().$executeRaw`
        UPDATE mcp_oauth_artifacts SET expires_at = GREATEST(expires_at, ${unusedUntil}, ${expiresAt})
        WHERE kind = 'Client' AND id = ${payload.clientId}`;
    }
    await pruneOAuthArtifactsNowAndThen(now);
  }

  private async findWhere(where: Prisma.Sql): Promise<AdapterPayload | undefined> {
    const [row] = await readSql<Row>`
      SELECT m.payload, m.consumed_at FROM mcp_oauth_artifacts m
      WHERE m.kind = ${this.kind} AND ${where} AND (m.expires_at IS NULL OR m.expires_at > now()) AND ${stillStanding(this.kind)}`;
    return found(row);
  }

  // An id the database cannot hold (a NUL, from a cookie or a header) names nothing stored.
  async find(id: string) {
    return isStorableText(id) ? this.findWhere(Prisma.sql`m.id = ${id}`) : undefined;
  }

  async findByUid(uid: string) {
    return isStorableText(uid) ? this.findWhere(Prisma.sql`m.uid = ${uid}`) : undefined;
  }

  async findByUserCode(userCode: string) {
    return isStorableText(userCode) ? this.findWhere(Prisma.sql`m.user_code = ${userCode}`) : undefined;
  }

  async consume(id: string): Promise<void> {
    if (!isStorableText(id)) return;
    await db().$executeRaw`UPDATE mcp_oauth_artifacts SET consumed_at = now() WHERE kind = ${this.kind} AND id = ${id}`;
  }

  async destroy(id: string): Promise<void> {
    if (!isStorableText(id)) return;
    await db().$executeRaw`DELETE FROM mcp_oauth_artifacts WHERE kind = ${this.kind} AND id = ${id}`;
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    if (!isStorableText(grantId)) return;
    await db().$executeRaw`DELETE FROM mcp_oauth_artifacts WHERE grant_id = ${grantId}`;
  }
}

/** How many expired artifacts one pruning deletes at most, and how often (per process) one runs. */
export const OAUTH_PRUNE_BATCH = 1000;
export const OAUTH_PRUNE_EVERY_MS = 60_000;

/**
 * Deletes up to OAUTH_PRUNE_BATCH artifacts past their expiry — clients nobody used (CLIENT_UNUSED_TTL),
 * tokens, codes, grants, interactions and sessions — which the provider no longer finds anyway (the
 * adapter reads only live rows), and registration access tokens whose client is gone. Clients
 * registered before they had a lifetime (expires_at null) go once CLIENT_UNUSED_TTL has passed since
 * their registration and no live grant names them. SKIP LOCKED: two instances pruning at once take
 * different rows.
 */
export async function pruneOAuthArtifacts(now = new Date()): Promise<number> {
  const unusedSince = new Date(now.getTime() - CLIENT_UNUSED_TTL * 1000);
  return db().$executeRaw`
    DELETE FROM mcp_oauth_artifacts WHERE (kind, id) IN (
      SELECT a.kind, a.id FROM mcp_oauth_artifacts a
      WHERE a.expires_at < ${now}
         OR (a.kind = 'Client' AND a.expires_at IS NULL AND a.created_at < ${unusedSince} AND NOT EXISTS (
              SELECT 1 FROM mcp_oauth_artifacts g
              WHERE g.kind = 'Grant' AND g.payload->>'clientId' = a.id AND (g.expires_at IS NULL OR g.expires_at > ${now})))
         OR (a.kind = 'RegistrationAccessToken' AND NOT EXISTS (
              SELECT 1 FROM mcp_oauth_artifacts c WHERE c.kind = 'Client' AND c.id = a.payload->>'clientId'))
      LIMIT ${OAUTH_PRUNE_BATCH}
      FOR UPDATE SKIP LOCKED
    )`;
}

/** When this process last pruned (ms since the epoch): the OAuth server's writes prune at most once a minute. */
export const oauthPruneClock = () => processSingleton("claims.oauthPruneClock", () => ({ lastAt: 0 }));

/**
 * Prunes if a minute has passed since this process last did: the table stays bounded by what lives,
 * without a timer or a second process, and a write pays for a pruning (one bounded DELETE) at most
 * once a minute. A failed pruning is logged; the write that triggered it stands.
 */
async function pruneOAuthArtifactsNowAndThen(now: number): Promise<void> {
  const clock = oauthPruneClock();
  if (now - clock.lastAt < OAUTH_PRUNE_EVERY_MS) return;
  clock.lastAt = now;
  await pruneOAuthArtifacts(new Date(now)).catch((err) => logError("[oauth] pruning expired artifacts failed", err));
}

/** The path of the first string in `value` the database cannot store, or null (iterative: payloads nest). */
export function firstUnstorableString(value: unknown, fits: (text: string) => boolean = isStorableText): string | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: "" }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (typeof entry.value === "string") {
      if (!fits(entry.value)) return entry.path || "value";
    } else if (entry.value !== null && typeof entry.value === "object") {
      for (const [key, child] of Object.entries(entry.value).reverse()) stack.push({ value: child, path: entry.path ? `${entry.path}.${key}` : key });
    }
  }
  return null;
}
