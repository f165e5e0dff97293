// Summarises a V8 .cpuprofile (node --cpu-prof): where the server's CPU time went, by package and by
// function (self time), so a miss can be attributed to Prisma, zod, tRPC, pg, the app's own code…
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  hitCount?: number;
}

export interface ProfileSummary {
  /** Sampled busy time (idle excluded), ms. */
  busyMs: number;
  byPackage: { name: string; percent: number }[];
  byFunction: { name: string; percent: number }[];
  /** The top packages (as `groupOf` names them), each with its top functions (percent of all busy time). */
  functionsByPackage: { name: string; percent: number; functions: { name: string; percent: number }[] }[];
}

const ROOT = path.resolve(import.meta.dirname, "..");

/** A file as a function's place in the summary: relative to the project, node_modules/ dropped. */
function shortPath(url: string): string {
  const clean = url.replace(/^file:\/\//, "");
  const nm = clean.lastIndexOf("node_modules/");
  if (nm !== -1) return clean.slice(nm + "node_modules/".length);
  const rel = path.relative(ROOT, clean);
  return rel.startsWith("..") ? clean : rel;
}

function packageOf(url: string): string {
  if (!url) return "(native/V8)";
  if (url.startsWith("node:")) return "node internals";
  // The one WebAssembly module the server runs on PostgreSQL: Prisma's query compiler (client engine).
  if (url.startsWith("wasm://")) return "@prisma/client (query compiler, wasm)";
  const clean = url.replace(/^file:\/\//, "");
  const nm = clean.lastIndexOf("node_modules/");
  if (nm !== -1) {
    const parts = clean.slice(nm + "node_modules/".length).split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const rel = path.relative(ROOT, clean);
  if (rel.startsWith("..")) return clean;
  return rel.split("/").slice(0, 2).join("/");
}

/**
 * Where a sampled position comes from: pages run from bundles (.next/server/chunks, Next's compiled
 * runtime with React inside), so the bundle's source map (`<file>.map`) names the original file.
 * Returns the original file (absolute when it can be) and line, or the position as it is.
 */
const sourceMaps = new Map<string, { map: SourceMap; dir: string } | null>();
function originalPosition(url: string, line: number, column: number): { file: string; line: number } {
  const file = url.replace(/^file:\/\//, "");
  if (!file.endsWith(".js")) return { file: url, line };
  if (!sourceMaps.has(file)) {
    let loaded: { map: SourceMap; dir: string } | null = null;
    try {
      if (existsSync(`${file}.map`)) loaded = { map: new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8"))), dir: path.dirname(file) };
    } catch {
      loaded = null; // an unreadable map: the bundle's own position
    }
    sourceMaps.set(file, loaded);
  }
  const found = sourceMaps.get(file);
  const entry = found?.map.findEntry(line, column) as { originalSource?: string; originalLine?: number } | undefined;
  if (!found || !entry?.originalSource) return { file: url, line };
  const source = entry.originalSource
    .replace(/^turbopack:\/\/\/\[project\]\//, `${ROOT}/`)
    .replace(/^webpack:\/\/next\/\.\//, `${ROOT}/node_modules/next/`)
    .replace(/^webpack:\/\/next\//, `${ROOT}/node_modules/next/(webpack)/`)
    .replace(/^file:\/\//, "");
  const decoded = safeDecode(source); // bundlers URL-encode "@" and "[…]" in sources
  return { file: path.isAbsolute(decoded) ? decoded : path.resolve(found.dir, decoded), line: entry.originalLine ?? line };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * For pages: the groups a render's time falls into (after source maps). React is compiled into Next
 * (next/dist/compiled/react*); "our code" is app/ (the pages) and server/ (what they call).
 */
export function pageGroupOf(url: string): string {
  const clean = url.replace(/^file:\/\//, "");
  if (/node_modules\/next\/(dist\/)?compiled\/(react|react-dom|react-is|react-server-dom-[\w-]+|scheduler)\//.test(clean)) return "react";
  const pkg = packageOf(url);
  if (pkg === "next" || pkg.startsWith("@next/")) return "next";
  if (pkg === "react" || pkg === "react-dom" || pkg === "scheduler") return "react";
  if (/^(pg|pg-[\w-]+|@prisma\/adapter-pg)$/.test(pkg)) return "pg";
  if (pkg.startsWith("@prisma/") || pkg === "prisma") return "prisma";
  if (pkg.startsWith("app/")) return "our code (app)";
  if (pkg.startsWith("server/")) return "our code (server)";
  if (pkg.startsWith(".next/")) return "page bundles (unmapped)";
  return pkg;
}

/**
 * By package and by function; `pages` maps bundled positions to their sources (originalPosition) and
 * groups them as pageGroupOf does.
 */
export function summarizeCpuProfile(file: string, top = 15, pages = false): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[] };
  const totalSamples = profile.samples.length || 1;
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / totalSamples;
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const functionsOf = new Map<string, Map<string, number>>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits) continue;
    const { functionName } = node.callFrame;
    const { file: url, line: lineNumber } = pages
      ? originalPosition(node.callFrame.url, node.callFrame.lineNumber, node.callFrame.columnNumber ?? 0)
      : { file: node.callFrame.url, line: node.callFrame.lineNumber };
    const groupOf = pages ? pageGroupOf : packageOf;
    if (functionName === "(idle)") continue;
    busy += hits;
    const special = functionName.startsWith("(") ? functionName : null;
    const pkg = special ?? groupOf(url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
    const fn = special ?? `${functionName || "(anonymous)"} ${pages ? shortPath(url) : pkg}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
    if (!functionsOf.has(pkg)) functionsOf.set(pkg, new Map());
    const own = functionsOf.get(pkg)!;
    own.set(fn, (own.get(fn) ?? 0) + hits);
  }
  const rank = (m: Map<string, number>, n = top) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, hits]) => ({ name, percent: Math.round((1000 * hits) / (busy || 1)) / 10 }));
  const packages = rank(byPackage);
  return {
    busyMs: Math.round(busy * msPerSample),
    byPackage: packages,
    byFunction: rank(byFunction),
    functionsByPackage: packages.slice(0, 8).map((p) => ({ ...p, functions: rank(functionsOf.get(p.name)!, 4) })),
  };
}
