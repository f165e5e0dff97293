// Only the newest migration keeps its copy of the schema (the base `npm run db:migration` diffs
// against; docs/operating.md#migrations). Older copies are never read: migrations apply migration.sql.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");

describe("prisma/migrations", () => {
  it("holds one schema snapshot, in the newest migration", () => {
    const folders = readdirSync(DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const withSnapshot = folders.filter((name) => existsSync(path.join(DIR, name, "schema.prisma")));
    expect(withSnapshot).toEqual([folders.at(-1)]);
  });

  it("has a migration.sql in every folder", () => {
    const folders = readdirSync(DIR, { withFileTypes: true }).filter((d) => d.isDirectory());
    const missing = folders.filter((d) => !existsSync(path.join(DIR, d.name, "migration.sql"))).map((d) => d.name);
    expect(missing).toEqual([]);
  });
});
