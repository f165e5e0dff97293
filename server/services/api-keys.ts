// API keys of an agent: create (the key is returned once), list, revoke (docs/api.md#api-keys).
import { Prisma } from "../db/generated/client.ts";
import { db, readSql, sqlTransaction } from "../db/client.ts";
import { generateApiKey } from "../auth/api-keys.ts";
import { badRequest, notFound } from "../errors.ts";
import { isUuid } from "../contract/common.ts";
import { MAX_LIVE_API_KEYS, type ApiKeyOut, type CreateApiKeyInput } from "../contract/api-keys.ts";
import type { ApiKeyScope } from "../domain/scopes.ts";

interface ApiKeyRow {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  prefix: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
}

const DAY_MS = 24 * 3600 * 1000;
const iso = (d: Date | string) => new Date(d).toISOString();

function toApiKey(row: ApiKeyRow): ApiKeyOut {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    prefix: row.prefix,
    created_at: iso(row.created_at),
    expires_at: row.expires_at === null ? null : iso(row.expires_at),
    last_used_at: row.last_used_at === null ? null : iso(row.last_used_at),
  };
}

const COLUMNS = Prisma.sql`id, name, scopes, prefix, created_at, expires_at, last_used_at`;

/** A prefix collision (two keys sharing their first 12 characters) is astronomically rare; retried. */
const isUniqueViolation = (err: unknown) => (err as { code?: unknown })?.code === "23505";

export async function createApiKey(agentId: string, input: CreateApiKeyInput): Promise<ApiKeyOut & { key: string }> {
  const now = new Date();
  const expiresAt = input.expires_in_days === undefined ? null : new Date(now.getTime() + input.expires_in_days * DAY_MS);
  for (let attempt = 0; ; attempt++) {
    const material = generateApiKey();
    try {
      const row = await sqlTransaction(async (tx) => {
        // The agent's row is locked, so concurrent creations count each other: never a 21st live key.
        await tx.query(Prisma.sql`SELECT id FROM agents WHERE id = ${agentId}::uuid FOR UPDATE`);
        const [{ live }] = await tx.query<{ live: number }>(Prisma.sql`
          SELECT count(*)::int AS live FROM api_keys
          WHERE agent_id = ${agentId}::uuid AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${now})`);
        if (live >= MAX_LIVE_API_KEYS) {
          throw badRequest(`api_keys: at most ${MAX_LIVE_API_KEYS} live keys per agent; revoke one first`);
        }
        const [created] = await tx.query<ApiKeyRow>(Prisma.sql`
          INSERT INTO api_keys (id, agent_id, name, prefix, secret_hash, scopes, expires_at, created_at)
          VALUES (gen_random_uuid(), ${agentId}::uuid, ${input.name}, ${material.prefix}, ${material.hash},
                  ${input.scopes}::text[], ${expiresAt}, ${now})
          RETURNING ${COLUMNS}`);
        return created;
      });
      return { ...toApiKey(row), key: material.key };
    } catch (err) {
      if (attempt < 3 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

/** The agent's keys that are not revoked (expired ones included, so their owner sees them lapse), newest first. */
export async function listApiKeys(agentId: string): Promise<{ api_keys: ApiKeyOut[] }> {
  const rows = await readSql<ApiKeyRow>`
    SELECT ${COLUMNS} FROM api_keys
    WHERE agent_id = ${agentId}::uuid AND revoked_at IS NULL
    ORDER BY created_at DESC, id DESC`;
  return { api_keys: rows.map(toApiKey) };
}

/** Revokes one of the agent's keys; another agent's key, an unknown or already revoked one: 404. */
export async function revokeApiKey({ agentId, keyId }: { agentId: string; keyId: string }): Promise<void> {
  const notFoundError = () => notFound("API key not found");
  if (!isUuid(keyId)) throw notFoundError();
  const { count: revoked } = await db().apiKey.updateMany({
    where: { id: keyId, agentId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (revoked === 0) throw notFoundError();
}
