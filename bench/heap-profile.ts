// `npx tsx bench/heap-profile.ts <file>`: where the memory of a sampling heap profile (written by
// bench/probe.ts at the server's peak RSS under BENCH_HEAP_PROFILE=<file>) was allocated, by package
// and by function, live objects only (what V8's sampling heap profiler keeps).
import { readFileSync } from "node:fs";

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

const file = process.argv[2];
if (!file) throw new Error("usage: tsx bench/heap-profile.ts <profile file>");
const written = JSON.parse(readFileSync(file, "utf8")) as {
  profile: { head: HeapNode };
  memory?: NodeJS.MemoryUsage;
  spaces?: { space_name: string; space_size: number; space_used_size: number }[];
};
const profile = { head: written.profile.head, memory: written.memory };

/** The package or our folder a frame belongs to: a node_modules package, a .next chunk, our top folder, or node. */
function packageOf(url: string): string {
  if (!url) return "(V8 / native)";
  if (url.startsWith("node:")) return "node internals";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const next = url.indexOf("/.next/");
  if (next >= 0) return ".next/" + url.slice(next + 7).split("/").slice(0, 2).join("/");
  const m = /\/(server|app|bench)\/([^/]+)/.exec(url);
  return m ? `${m[1]}/${m[2].replace(/\.tsx?$/, "")}` : url.slice(-60);
}

const byPackage = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
(function walk(node: HeapNode) {
  if (node.selfSize) {
    total += node.selfSize;
    const pkg = packageOf(node.callFrame.url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + node.selfSize);
    const fn = `${node.callFrame.functionName || "(anonymous)"} ${pkg}:${node.callFrame.lineNumber}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + node.selfSize);
  }
  for (const child of node.children) walk(child);
})(profile.head);

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
if (profile.memory) {
  const u = profile.memory;
  console.log(`at RSS ${mb(u.rss)} MB: heap ${mb(u.heapTotal)} MB (${mb(u.heapUsed)} in use), external ${mb(u.external)} MB (${mb(u.arrayBuffers)} buffers)`);
}
if (written.spaces) {
  console.log(`V8 spaces (committed / used): ${written.spaces.filter((s) => s.space_size > 0).map((s) => `${s.space_name} ${mb(s.space_size)}/${mb(s.space_used_size)}`).join(", ")}`);
}
console.log(`sampled live allocations: ${mb(total)} MB`);
console.log("\nby package");
for (const [k, v] of top(byPackage, 15)) console.log(`  ${mb(v).padStart(6)} MB  ${k}`);
console.log("\nby function");
for (const [k, v] of top(byFunction, 20)) console.log(`  ${mb(v).padStart(6)} MB  ${k}`);
