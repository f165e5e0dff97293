// The tested rules are the running rules: every function exported from server/domain must be imported
// by production code (a file under server/ or app/, another domain file included), not by tests alone.
// A rule only the tests call is a second copy of a rule that runs somewhere else, or no rule at all.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const DOMAIN = path.join(ROOT, "server/domain");

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "generated" || name.startsWith(".")) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
}

const hasExport = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The functions a domain file exports: `export function f` and `export const f = (…) => …`. */
function exportedFunctions(file: string): string[] {
  const names: string[] = [];
  for (const node of parse(file).statements) {
    if (!hasExport(node)) continue;
    if (ts.isFunctionDeclaration(node) && node.name) names.push(node.name.text);
    if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) {
        const init = d.initializer;
        if (ts.isIdentifier(d.name) && init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
          names.push(d.name.text);
        }
      }
    }
  }
  return names;
}

/** For each domain file (absolute path, no extension): the names production files import from it. */
function productionImports(): Map<string, Set<string>> {
  const imported = new Map<string, Set<string>>();
  const files = [...sourceFiles(path.join(ROOT, "server")), ...sourceFiles(path.join(ROOT, "app"))];
  for (const file of files) {
    for (const node of parse(file).statements) {
      if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
      const spec = node.moduleSpecifier;
      if (!spec || !ts.isStringLiteral(spec)) continue;
      const target = spec.text.startsWith("~/")
        ? path.join(ROOT, spec.text.slice(2))
        : spec.text.startsWith(".")
          ? path.resolve(path.dirname(file), spec.text)
          : null;
      if (!target) continue;
      const key = target.replace(/\.tsx?$/, "");
      if (path.dirname(key) !== DOMAIN || key === file.replace(/\.tsx?$/, "")) continue;
      const names = imported.get(key) ?? new Set<string>();
      const clause = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
      if (clause && (ts.isNamedImports(clause) || ts.isNamedExports(clause))) {
        for (const el of clause.elements) names.add((el.propertyName ?? el.name).text);
      } else {
        names.add("*"); // a namespace import or `export *` uses all of it
      }
      imported.set(key, names);
    }
  }
  return imported;
}

/**
 * Exported for its unit test but run through another export of the same file (which production
 * imports): a call `fn(` in its own file, other than its declaration, counts as running it.
 */
function calledInside(file: string, fn: string): boolean {
  const text = readFileSync(file, "utf8");
  return new RegExp(`(?<!function\\s+)\\b${fn}\\s*\\(`).test(text);
}

describe("server/domain", () => {
  const imported = productionImports();
  const domainFiles = sourceFiles(DOMAIN);

  it("finds the domain files and their exported functions", () => {
    expect(domainFiles.length).toBeGreaterThan(5);
    expect(exportedFunctions(path.join(DOMAIN, "gradient.ts"))).toContain("applyVote");
    expect(imported.get(path.join(DOMAIN, "gradient"))).toContain("applyVote");
  });

  it("every exported function is imported by a production file under server/ or app/", () => {
    const unused: string[] = [];
    for (const file of domainFiles) {
      const names = imported.get(file.replace(/\.tsx?$/, "")) ?? new Set<string>();
      for (const fn of exportedFunctions(file)) {
        if (!names.has(fn) && !names.has("*") && !calledInside(file, fn)) unused.push(`${path.relative(ROOT, file)}: ${fn}`);
      }
    }
    expect(unused, "exported domain functions that only tests call: run them in production or delete them").toEqual([]);
  });
});
