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

// The query client's provider sits in the layouts of the parts of the site that read and write through
// it, not in the root layout (app/_lib/trpc.tsx, docs/architecture.md#pages-from-data). A page whose
// modules call the tRPC client's hooks, with no such layout above it, fails on the server for
// everyone: each page's static imports are walked to find such a caller; a module that renders
// Providers itself wraps what it imports, and a module loaded with next/dynamic is not a static import.
const CALLS_THE_QUERY_CLIENT = /\b(useTRPC|useQueryClient)\(/;
const TRPC_MODULE = "app/_lib/trpc.tsx";

/** Whether `file` renders Providers, or re-exports as its default a local module that does. */
function importsProviders(file: string): boolean {
  const reexported = /export\s*\{\s*default\s*\}\s*from\s*"([^"]+)"/.exec(source(file))?.[1];
  const target = reexported ? resolveLocal(file, reexported) : null;
  if (target) return importsProviders(target);
  return runtimeImports(file).some((s) => resolveLocal(file, s) === TRPC_MODULE) && /<Providers>/.test(source(file));
}

/** The first module under `page` (itself included) that calls the query client's hooks, unwrapped. */
function unwrappedCaller(page: string): string | null {
  const seen = new Set<string>();
  const stack = [page];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file) || file === TRPC_MODULE) continue;
    seen.add(file);
    if (importsProviders(file)) continue;
    if (CALLS_THE_QUERY_CLIENT.test(source(file))) return file;
    for (const specifier of runtimeImports(file)) {
      const target = resolveLocal(file, specifier);
      if (target?.startsWith("app/")) stack.push(target);
    }
  }
  return null;
}

function providedByALayout(page: string): boolean {
  for (let dir = path.posix.dirname(page); dir !== "." && dir !== ""; dir = path.posix.dirname(dir)) {
    for (const name of ["layout.tsx", "layout.ts"]) {
      const layout = `${dir}/${name}`;
      if (existsSync(path.join(ROOT, layout)) && importsProviders(layout)) return true;
    }
  }
  return false;
}

describe("the query client's provider", () => {
  const pages = files("app").filter((f) => /\/page\.tsx$/.test(f));

  it("finds the pages that call the query client and the layouts that provide it", () => {
    expect(unwrappedCaller("app/settings/page.tsx")).not.toBeNull();
    expect(providedByALayout("app/settings/page.tsx")).toBe(true);
    expect(providedByALayout("app/leaderboard/page.tsx")).toBe(false);
    // A layout that re-exports the shared one provides it too.
    expect(providedByALayout("app/welcome/page.tsx")).toBe(true);
  });

  it("sits above every page whose modules call it", () => {
    const missing = pages.flatMap((page) => {
      const caller = unwrappedCaller(page);
      return caller && !providedByALayout(page) ? [`${page} reaches ${caller} with no layout rendering <Providers> above it`] : [];
    });
    expect(missing).toEqual([]);
  });
});

// Links fetch their page ahead when pointed at, not when scrolled into view (app/_components/link.tsx):
// a page that imported Next's Link directly would prefetch every link it shows again.
describe("links", () => {
  it("go through the site's Link, which prefetches on intent", () => {
    const direct = files("app").filter((f) => f !== "app/_components/link.tsx" && runtimeImports(f).includes("next/link"));
    expect(direct).toEqual([]);
    expect(runtimeImports("app/_components/link.tsx")).toContain("next/link");
  });
});
