// `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql with the
// SQL that turns the schema of the newest migration into the current prisma/schema.prisma.
// Works offline and without a database: Prisma diffs the two schema files with its WASM engine.
// Only the newest migration folder keeps a copy of the schema it produced (schema.prisma), the next
// base: writing a new one moves the copy (nothing reads the older ones; migrations apply migration.sql).
// Review the SQL (and add what Prisma cannot express, e.g. generated columns) before committing;
// every start of the app, and the test suite, then applies it.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]+/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(1);
}
const dir = path.resolve("prisma/migrations");
const previous = readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort()
  .at(-1);
const base = previous ? path.join(dir, previous, "schema.prisma") : undefined;
if (base && !existsSync(base)) {
  console.error(`${base} is missing: cannot tell what changed since ${previous}`);
  process.exit(1);
}
const args = ["prisma", "migrate", "diff", "--to-schema-datamodel", "prisma/schema.prisma", "--script"];
args.push(...(base ? ["--from-schema-datamodel", base] : ["--from-empty"]));
const sql = execFileSync("npx", args, { encoding: "utf8", env: { ...process.env, CHECKPOINT_DISABLE: "1" } })
  .split("\n")
  .filter((line) => !line.startsWith("Loaded Prisma config"))
  .join("\n")
  .trim();
if (!sql || /^-- This is an empty migration/.test(sql)) {
  console.log("No schema changes since the last migration.");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const target = path.join(dir, `${stamp}_${name}`);
mkdirSync(target, { recursive: true });
writeFileSync(path.join(target, "migration.sql"), `${sql}\n`);
copyFileSync("prisma/schema.prisma", path.join(target, "schema.prisma"));
if (base) rmSync(base);
console.log(`Wrote ${path.relative(process.cwd(), target)}/migration.sql — review it, then run the tests.`);
