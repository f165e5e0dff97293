// Next's static files (/_next/static: the pages' scripts and styles, named by their content and never
// changed) sent in brotli at its best quality to browsers that accept it: 14 % fewer bytes than Next's
// gzip on a claim page's scripts (196 → 169 KB), what a phone on a slow link waits for before its
// largest paint (docs/benchmarks/2026-11-29-lighthouse-second.md). Each file is encoded once per
// process, one at a time off the event loop, in the background after start-up; until a file is ready
// Next serves it as before (gzip). Only the build's own files are served, by exact path: a request's
// path is a key of the table, never a path on disk.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants } from "node:zlib";
import { logWarn } from "../log/logger.ts";
import { processSingleton } from "../process-singleton.ts";
import { chooseCoding, COMPRESS_MIN_BYTES, varyOnEncoding } from "./compression.ts";

const brotli = promisify(brotliCompress);
const PREFIX = "/_next/static/";
const TYPES: Record<string, string> = { ".js": "application/javascript; charset=UTF-8", ".css": "text/css; charset=UTF-8" };

interface Encoded {
  body: Buffer;
  type: string;
  etag: string;
}

const state = processSingleton("claims.staticBrotli", () => ({ started: false, files: new Map<string, Encoded>() }));

/** The build's scripts and styles under `dir` (.next/static), as request paths → files on disk. */
async function staticFiles(dir: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !TYPES[path.extname(entry.name)]) continue;
    const file = path.join(entry.parentPath, entry.name);
    found.set(PREFIX + path.relative(dir, file).split(path.sep).join("/"), file);
  }
  return found;
}

/** Starts encoding the build's static files (production, once per process); resolves when all are done. */
export function startStaticBrotli(root = process.cwd()): Promise<void> {
  if (state.started) return Promise.resolve();
  state.started = true;
  return (async () => {
    const dir = path.join(/*turbopackIgnore: true*/ root, ".next", "static");
    for (const [urlPath, file] of await staticFiles(dir)) {
      const raw = await readFile(file);
      if (raw.length < COMPRESS_MIN_BYTES) continue;
      const body = await brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
      const etag = `"br-${createHash("sha256").update(raw).digest("base64url").slice(0, 22)}"`;
      state.files.set(urlPath, { body, type: TYPES[path.extname(file)], etag });
    }
  })().catch((err) => logWarn("[static] brotli copies not made; Next serves the files", err));
}

/** Answers a GET or HEAD of a build file in brotli when the browser accepts it and the copy is ready. */
export function serveStaticBrotli(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const url = req.url ?? "";
  if (!url.startsWith(PREFIX)) return false;
  const encoded = state.files.get(url.split("?")[0]);
  if (!encoded || chooseCoding(req.headers["accept-encoding"]) !== "br") return false;
  const headers = {
    "Content-Type": encoded.type,
    "Cache-Control": "public, max-age=31536000, immutable",
    "Content-Encoding": "br",
    Vary: varyOnEncoding(undefined),
    ETag: encoded.etag,
    "X-Content-Type-Options": "nosniff",
  };
  if (req.headers["if-none-match"] === encoded.etag) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  res.writeHead(200, { ...headers, "Content-Length": encoded.body.length });
  res.end(req.method === "HEAD" ? undefined : encoded.body);
  return true;
}
