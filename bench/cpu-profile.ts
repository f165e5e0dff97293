// Summarises a V8 .cpuprofile (node --cpu-prof): where the server's CPU time went, by package and by
// function (self time), so a miss can be attributed to Prisma, zod, tRPC, pg, the app's own code…
import { readFileSync } from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface ProfileSummary {
  /** Sampled busy time (idle excluded), ms. */
  busyMs: number;
  byPackage: { name: string; percent: number }[];
  byFunction: { name: string; percent: number }[];
}

const ROOT = path.resolve(import.meta.dirname, "..");

function packageOf(url: string): string {
  if (!url) return "(native/V8)";
  if (url.startsWith("node:")) return "node internals";
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

export function summarizeCpuProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[] };
  const totalSamples = profile.samples.length || 1;
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / totalSamples;
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)") continue;
    busy += hits;
    const special = functionName.startsWith("(") ? functionName : null;
    const pkg = special ?? packageOf(url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
    const fn = special ?? `${functionName || "(anonymous)"} ${pkg}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
  }
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => ({ name, percent: Math.round((1000 * hits) / (busy || 1)) / 10 }));
  return { busyMs: Math.round(busy * msPerSample), byPackage: rank(byPackage), byFunction: rank(byFunction) };
}
