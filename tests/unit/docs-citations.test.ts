// Code and docs cite the repository only: decisions live in docs/ (README.md is the front door), so a
// comment names `docs/<file>.md#<section>`, and every such citation must lead somewhere.
// Applied migrations (prisma/migrations/*/migration.sql) are left as they were: their checksums are
// recorded in every database they ran on.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SKIP_DIRS = new Set(["node_modules", ".git", ".next", ".data", "test-results", "playwright-report", "generated", "results"]);
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md|css|sql|prisma|toml|yml|yaml|sh)$|^run$|^replica$/;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* files(path.join(dir, entry.name));
    } else if (TEXT.test(entry.name) && entry.name !== "package-lock.json") {
      yield path.join(dir, entry.name);
    }
  }
}

const isAppliedMigration = (rel: string) => /^prisma\/migrations\/[^/]+\/migration\.sql$/.test(rel);
const sources = [...files(ROOT)]
  .map((file) => ({ rel: path.relative(ROOT, file).split(path.sep).join("/"), file }))
  .filter(({ rel, file }) => !isAppliedMigration(rel) && statSync(file).size < 2_000_000);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

describe("citations", () => {
  it("never name the contract document outside the repository", () => {
    // Built from parts so that this file does not cite it either.
    const outside = new RegExp(["CONTRACT", "(\\.md|\\s*§)"].join(""));
    const offenders = sources
      .filter(({ file }) => outside.test(readFileSync(file, "utf8")))
      .map(({ rel }) => rel);
    expect(offenders).toEqual([]);
  });

  it("of docs/ lead to a file and, with #section, to a heading in it", () => {
    const broken: string[] = [];
    const headings = new Map<string, Set<string>>();
    for (const { rel, file } of sources) {
      const text = readFileSync(file, "utf8");
      const base = rel.startsWith("docs/") ? path.posix.dirname(rel) : "";
      const cites = rel.startsWith("docs/")
        ? [...text.matchAll(/\]\(((?!https?:)[^)#\s]*\.md)?(#[\w-]+)?\)/g)].map((m) => [
            m[1] ? path.posix.normalize(path.posix.join(base, m[1])) : rel,
            m[2],
          ])
        : [...text.matchAll(/\b(docs\/[\w/.-]*\.md)(#[\w-]+)?/g)].map((m) => [m[1], m[2]]);
      for (const [target, hash] of cites) {
        if (!target || !target.endsWith(".md")) continue;
        const targetFile = path.join(ROOT, target);
        if (!existsSync(targetFile)) {
          broken.push(`${rel}: ${target}`);
          continue;
        }
        if (!hash) continue;
        if (!headings.has(target)) {
          const lines = readFileSync(targetFile, "utf8").split("\n");
          headings.set(target, new Set(lines.filter((l) => /^#{1,6} /.test(l)).map((l) => anchor(l.replace(/^#+ /, "")))));
        }
        if (!headings.get(target)!.has(hash.slice(1))) broken.push(`${rel}: ${target}${hash}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
