// What reaches the browser: every module a client component ("use client") imports, and what those
// import in turn, is bundled for the browser. From server/ they may take types (erased) and the plain
// constants and pure functions of server/domain/ — never a runtime value from anywhere else (the zod
// schemas of server/contract/, the database, secrets), and never zod itself.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return files(rel);
    return /\.(ts|tsx)$/.test(e.name) ? [rel] : [];
  });
}

const source = (file: string) => readFileSync(path.join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");

/** Runtime imports only: `import type …` and `export type …` are erased and never reach a bundle. */
function runtimeImports(file: string): string[] {
  const found: string[] = [];
  for (const m of source(file).matchAll(/^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s*)?["']([^"']+)["']/gm)) {
    if (!m[2]) found.push(m[3]);
  }
  return found;
}

function resolveLocal(from: string, specifier: string): string | null {
  const base = specifier.startsWith("~/") ? specifier.slice(2) : specifier.startsWith(".") ? path.posix.join(path.posix.dirname(from), specifier) : null;
  if (base === null) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (existsSync(path.join(ROOT, candidate)) && /\.(ts|tsx)$/.test(candidate)) return path.posix.normalize(candidate);
  }
  return null;
}

const clientComponents = files("app").filter((f) => /^\s*["']use client["']/.test(readFileSync(path.join(ROOT, f), "utf8")));

function browserBundleViolations(): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const stack = [...clientComponents];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of runtimeImports(file)) {
      if (specifier === "zod" || specifier.startsWith("zod/")) found.push(`${file} imports zod`);
      const target = resolveLocal(file, specifier);
      if (!target) continue;
      if (target.startsWith("server/") && !target.startsWith("server/domain/")) found.push(`${file} imports ${specifier} at runtime`);
      else stack.push(target);
    }
  }
  return found;
}

describe("what client components bring to the browser", () => {
  it("finds the client components and reads their imports", () => {
    expect(clientComponents).toContain("app/claims/[id]/evidence-section.tsx");
    expect(runtimeImports("app/claims/[id]/evidence-section.tsx")).toContain("~/server/domain/evidence.ts");
    expect(runtimeImports("app/claims/[id]/evidence-section.tsx")).not.toContain("~/server/contract/evidence.ts");
  });

  it("takes nothing from server/ but types and server/domain, and no zod", () => {
    expect(browserBundleViolations()).toEqual([]);
  });
});
