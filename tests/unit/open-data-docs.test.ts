// docs/features/open-data.md lists every column of every file a snapshot holds, in the file's order, and
// nothing else: a file added to SNAPSHOT_FILES, or a column changed, without its documentation fails here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SNAPSHOT_FILES } from "../../server/services/open-data-snapshot.ts";

const DOC = readFileSync(path.resolve(import.meta.dirname, "../../docs/features/open-data.md"), "utf8");

/** The first column of the table under the paragraph that starts with **`name`**. */
function documentedColumns(doc: string, name: string): string[] | null {
  const lines = doc.split("\n");
  const at = lines.findIndex((l) => l.startsWith(`**\`${name}\`**`));
  if (at < 0) return null;
  const start = lines.findIndex((l, i) => i > at && l.startsWith("|"));
  const table: string[] = [];
  for (let i = start + 2; i < lines.length && lines[i].startsWith("|"); i++) table.push(lines[i]);
  return table.map((row) => /^\|\s*`([a-z_]+)`/.exec(row)?.[1] ?? row);
}

describe("the open data's documentation", () => {
  it("names every column of every file, in order", () => {
    for (const file of SNAPSHOT_FILES) expect(documentedColumns(DOC, file.name), file.name).toEqual([...file.columns]);
  });

  it("finds what it checks: a missing column, a missing file", () => {
    expect(documentedColumns(DOC.replace(/^\| `weight` .*\n/m, ""), "votes")).not.toContain("weight");
    expect(documentedColumns(DOC.replace("**`evidence`**", "**evidence**"), "evidence")).toBeNull();
  });
});
