// `npx tsx bench/page-weight.ts --base <url> [--pid <server pid>] [--renders N] <path>…`: what a page's
// HTML is made of, and the server's CPU per first render (docs/benchmarks/2026-11-25-page-weight.md).
//
// Bytes: the uncompressed HTML, split into markup, React's payload (the `self.__next_f.push` scripts),
// other inline scripts, <script src> and <link> tags.
// CPU: N sequential renders, each a new one (the `claims-fresh` cookie bypasses the page cache,
// server/http/page-cache.ts), uncompressed like the bench's load; the server process's user + system
// time (from /proc/<pid>/stat, worker threads included) over N. Run it against a production server
// (`npm start`) that nothing else is loading.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { base: { type: "string", default: "http://127.0.0.1:3000" }, pid: { type: "string" }, renders: { type: "string", default: "60" } },
});
const renders = Number(values.renders);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function get(path: string): Promise<{ status: number; html: string }> {
  const res = await fetch(values.base + path, { headers: { cookie: "claims-fresh=1", "accept-encoding": "identity" } });
  return { status: res.status, html: await res.text() };
}

function weigh(html: string) {
  const size = (s: string) => Buffer.byteLength(s);
  let payload = 0;
  let inline = 0;
  let scriptTags = 0;
  for (const m of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (m[2].startsWith("self.__next_f.push")) payload += size(m[0]);
    else if (m[2].trim()) inline += size(m[0]);
    else scriptTags += size(m[0]);
  }
  const links = [...html.matchAll(/<link[^>]*>/g)].reduce((n, m) => n + size(m[0]), 0);
  const total = size(html);
  return { total, markup: total - payload - inline - scriptTags - links, payload, inline, scriptTags, links };
}

/** The process's CPU time in ms (user + system, all its threads). */
function cpuMs(pid: string): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

for (const path of positionals) {
  const { status, html } = await get(path);
  const w = weigh(html);
  let cpu = "";
  if (values.pid) {
    for (let i = 0; i < 10; i++) await get(path);
    const before = cpuMs(values.pid);
    for (let i = 0; i < renders; i++) await get(path);
    cpu = ` | ${((cpuMs(values.pid) - before) / renders).toFixed(1)} ms CPU per render (${renders} renders)`;
  }
  console.log(
    `${path} ${status}: ${kb(w.total)} = markup ${kb(w.markup)} + React payload ${kb(w.payload)} + inline scripts ${kb(w.inline)} + <script src> ${kb(w.scriptTags)} + <link> ${kb(w.links)}${cpu}`,
  );
}
