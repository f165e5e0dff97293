// A new embedded database starts from the kept copy of a migrated one (server/db/pglite-template.ts,
// docs/operating.md#a-new-embedded-database): the copy must be the schema the migrations make, and a
// changed migration must not be answered with the copy of the old ones.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations } from "~/server/db/migrate.ts";
import { isNewDatabase, PGLITE_EXTENSIONS, pgliteRunner, readTemplate, saveTemplate, templatePath } from "~/server/db/pglite-template.ts";

const schemaOf = async (db: PGlite) =>
  (
    await db.query<{ t: string }>(
      `SELECT table_name || '.' || column_name || ':' || data_type AS t FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1`,
    )
  ).rows.map((r) => r.t);

const scratch = mkdtempSync(path.join(tmpdir(), "pglite-template-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the embedded database's template", () => {
  it("is named by the migrations' content: one changed migration, another name", () => {
    const migrations = path.join(scratch, "migrations");
    cpSync(path.join(process.cwd(), "prisma", "migrations"), migrations, { recursive: true });
    const before = templatePath(["pg_trgm"], migrations);
    expect(before).toMatch(/node_modules\/\.cache\/claims-service\/pglite-[0-9a-f]{24}\.tar\.gz$/);
    expect(templatePath(["pg_trgm"], migrations)).toBe(before);
    const last = readdirSync(migrations).filter((d) => /^\d/.test(d)).sort().at(-1)!;
    appendFileSync(path.join(migrations, last, "migration.sql"), "\n-- changed\n");
    expect(templatePath(["pg_trgm"], migrations)).not.toBe(before);
    expect(templatePath([], migrations)).not.toBe(templatePath(["pg_trgm"], migrations));
  });

  it("loads as the schema the migrations make, every migration recorded as applied", async () => {
    const fresh = new PGlite("memory://", { extensions: PGLITE_EXTENSIONS });
    const ran = await applyMigrations(pgliteRunner(fresh));
    expect(ran.length).toBeGreaterThan(10);
    const file = path.join(scratch, "template.tar.gz");
    await saveTemplate(fresh, file);
    const expected = await schemaOf(fresh);
    await fresh.close();

    const copy = new PGlite("memory://", { extensions: PGLITE_EXTENSIONS, loadDataDir: readTemplate(file) });
    expect(await applyMigrations(pgliteRunner(copy))).toEqual([]);
    expect(await schemaOf(copy)).toEqual(expected);
    // The extension came along: similar claims use it.
    expect((await copy.query<{ s: number }>("SELECT similarity('water on mars', 'water on mars') AS s")).rows[0].s).toBe(1);
    await copy.close();
  }, 60_000);

  it("is used only for a database not yet created", () => {
    expect(isNewDatabase("memory://")).toBe(true);
    expect(isNewDatabase(path.join(scratch, "nothing-here"))).toBe(true);
    const cluster = path.join(scratch, "cluster");
    mkdirSync(cluster);
    writeFileSync(path.join(cluster, "PG_VERSION"), "17\n");
    expect(isNewDatabase(cluster)).toBe(false);
    expect(readTemplate(path.join(scratch, "missing.tar.gz"))).toBeUndefined();
    expect(readTemplate(null)).toBeUndefined();
  });
});
