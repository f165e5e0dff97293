// Next's static files (/_next/static: the pages' scripts and styles, named by their content and never
// changed) sent in brotli at its best quality to browsers that accept it: 14 % fewer bytes than Next's
// gzip on a claim page's scripts (196 → 169 KB), what a phone on a slow link waits for before its
// largest paint (docs/benchmarks/2026-11-29-lighthouse-second.md). A file is encoded once per process,
// off the event loop, when a browser accepting brotli first asks for it; that browser and any other
// until the copy is ready get Next's gzip. Only the build's own files are served, by exact path: the
// folder is listed once at start-up, and a request's path is a key of that list, never a path on disk.
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

const state = processSingleton("claims.staticBrotli", () => ({
  /** The build's scripts and styles: request path → file on disk (null until listed). */
  files: null as Map<string, string> | null,
  encoded: new Map<string, Encoded>(),
  encoding: new Set<string>(),
}));

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

/** Lists the build's static files (production, at start-up); nothing is encoded yet. */
export async function startStaticBrotli(root = process.cwd()): Promise<void> {
  if (state.files) return;
  try {
    state.files = await staticFiles(path.join(/*turbopackIgnore: true*/ root, ".next", "static"));
  } catch (err) {
    logWarn("[static] the build's files could not be listed; Next serves them in gzip", err);
  }
}

/** Encodes one listed file in the background (once); a failure leaves it to Next. */
function encodeLater(urlPath: string, file: string): void {
  if (state.encoding.has(urlPath)) return;
  state.encoding.add(urlPath);
  void (async () => {
    const raw = await readFile(file);
    if (raw.length < COMPRESS_MIN_BYTES) return;
    const body = await brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
    const etag = `"br-${createHash("sha256").update(raw).digest("base64url").slice(0, 22)}"`;
    state.encoded.set(urlPath, { body, type: TYPES[path.extname(file)], etag });
  })().catch((err) => logWarn(`[static] ${urlPath} not encoded; Next serves it in gzip`, err));
}

/** Answers a GET or HEAD of a build file in brotli when the browser accepts it and the copy is ready. */
export function serveStaticBrotli(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const url = req.url ?? "";
  if (!url.startsWith(PREFIX) || chooseCoding(req.headers["accept-encoding"]) !== "br") return false;
  const urlPath = url.split("?")[0];
  const encoded = state.encoded.get(urlPath);
  if (!encoded) {
    const file = state.files?.get(urlPath);
    if (file) encodeLater(urlPath, file);
    return false;
  }
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
