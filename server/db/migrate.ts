// Applies the committed prisma/migrations/*/migration.sql files in order, recording them in Prisma's
// own `_prisma_migrations` table (same columns and checksums), so `prisma migrate status/deploy` agree.
// Prisma's migrate engine cannot run offline against these adapters at start-up; this can.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { config } from "../config.ts";
import { log } from "../log/logger.ts";

export interface SqlRunner {
  exec(sql: string): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  withLock<T>(fn: () => Promise<T>): Promise<T>;
}

export function migrationsDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ config().MIGRATIONS_DIR ?? path.join(process.cwd(), "prisma", "migrations"));
}

export function listMigrations(dir = migrationsDir()): { name: string; sql: string; checksum: string }[] {
  if (!existsSync(dir)) throw new Error(`Migrations folder not found: ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(/*turbopackIgnore: true*/ dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(/*turbopackIgnore: true*/ dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Applies the pending migrations of `dir` (default: migrationsDir()); returns the names it ran. */
export async function applyMigrations(runner: SqlRunner, dir = migrationsDir()): Promise<string[]> {
  const migrations = listMigrations(dir);
  return runner.withLock(async () => {
    await runner.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const rows = await runner.query(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Map(rows.map((r) => [String(r.migration_name), String(r.checksum)]));
    const ran: string[] = [];
    for (const m of migrations) {
      const previous = applied.get(m.name);
      if (previous !== undefined) {
        if (previous !== m.checksum) {
          log().warn({ migration: m.name }, `[db] migration ${m.name} was edited after it was applied (checksum differs)`);
        }
        continue;
      }
      // One transaction per migration: a failure leaves the database as it was.
      await runner.exec(`BEGIN;\n${m.sql}\n;\nINSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
        VALUES ('${randomUUID()}', '${m.checksum}', now(), '${m.name.replace(/'/g, "''")}', 1);\nCOMMIT;`).catch(
        async (err) => {
          await runner.exec("ROLLBACK").catch(() => {});
          throw new Error(`Migration ${m.name} failed: ${(err as Error).message}`);
        },
      );
      ran.push(m.name);
    }
    return ran;
  });
}
