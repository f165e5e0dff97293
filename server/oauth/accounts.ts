// Who may consent to an MCP client (docs/features/mcp.md#oauth): the service's own accounts and
// suspension rules decide, not the OAuth library.
import { Prisma } from "../db/generated/client.ts";
import { readSql } from "../db/client.ts";
import { notSuspendedSql } from "../domain/suspension.ts";

const NOT_SUSPENDED = notSuspendedSql("");

/** An account that exists and is not suspended. */
export async function mayConsent(agentId: string): Promise<boolean> {
  const [row] = await readSql<{ ok: boolean }>(Prisma.sql`SELECT (${Prisma.raw(NOT_SUSPENDED)}) AS ok FROM agents WHERE id = ${agentId}::uuid`, { prepared: true });
  return row?.ok === true;
}
