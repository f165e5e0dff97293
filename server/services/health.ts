// GET /health: answers once one statement has made the round trip to the database.
import { dbBackend, readSql } from "../db/client.ts";
import type { Health } from "../contract/health.ts";

export async function checkHealth(): Promise<Health> {
  await readSql`SELECT 1`;
  return { status: "ok", database: dbBackend() };
}
