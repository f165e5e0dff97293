// The open data's downloads (docs/features/open-data.md#downloading): the list of kept snapshots as JSON
// (GET /data for a program, /data.json), each file of a snapshot (GET /data/{snapshot}/{file}: a strong
// ETag from its SHA-256, Range, cached for good: a snapshot never changes), and the public key that
// verifies the manifests (GET /.well-known/claims-data-key). Route handlers outside /api: the node-level
// guard charges each request one unit of the client's page budget, as every other download
// (server/http/page-routes.ts); refusals are the door's answers.
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { errorAnswer, errorBodyOf, PUBLIC_DOCUMENT_HEADERS, toResponse } from "../door/answers.ts";
import { listSnapshots, snapshotFile, type SnapshotListing } from "../services/open-data-snapshot.ts";
import { MANIFEST_FILE, SIGNATURE_FILE } from "../services/open-data-format.ts";
import { publicKeyPem, signingKey } from "../services/open-data-key.ts";
import { publicOrigin } from "./public-origin.ts";

/** A snapshot's files never change: caches may keep them for a year and never ask again. */
const IMMUTABLE = "public, max-age=31536000, immutable";

export const KEY_PATH = "/.well-known/claims-data-key";

/** The list as a program reads it: each kept snapshot (newest first), its files and where to get them. */
export function snapshotsJson(snapshots: SnapshotListing[], origin: string) {
  return {
    snapshots: snapshots.map((s) => ({
      name: s.name,
      cutoff: s.manifest.cutoff,
      created_at: s.manifest.created_at,
      code_version: s.manifest.code_version,
      scorer_version: s.manifest.scorer_version,
      bytes: s.bytes,
      files: [
        ...[MANIFEST_FILE, SIGNATURE_FILE].map((name) => ({ name, bytes: s.extra[name].bytes, rows: null, sha256: s.extra[name].sha256 })),
        ...Object.entries(s.manifest.files).map(([name, f]) => ({ name, bytes: f.bytes, rows: f.rows, sha256: f.sha256 })),
      ].map((f) => ({ ...f, url: `${origin}/data/${s.name}/${f.name}` })),
    })),
    public_key: `${origin}${KEY_PATH}`,
    how_to_verify: `${origin}/data`,
  };
}

/** GET /data (a program's Accept) and /data.json. */
export async function snapshotListResponse(request: Request): Promise<Response> {
  const body = snapshotsJson(await listSnapshots(), publicOrigin(request));
  // GET /data answers a page or this list by Accept: a shared cache must keep them apart.
  return Response.json(body, { headers: { ...PUBLIC_DOCUMENT_HEADERS, "Cache-Control": "public, max-age=60", Vary: "Accept" } });
}

const notFound = (detail: string) => toResponse(errorAnswer(errorBodyOf("not_found", detail), { headers: PUBLIC_DOCUMENT_HEADERS }));

function contentType(file: string): string {
  if (file === MANIFEST_FILE) return "application/json";
  if (file === SIGNATURE_FILE) return "text/plain; charset=us-ascii";
  return "application/gzip";
}

/** Whether If-None-Match names this entity tag (weakly, as RFC 9110 compares for it), or is *. */
function matchesETag(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}

/**
 * The one byte range of a Range header, within `size`: null when there is none to honour (absent,
 * several ranges, not bytes, malformed: the whole file is sent, as RFC 9110 allows); "unsatisfiable"
 * when it starts past the end.
 */
export function byteRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== "" && Number(m[2]) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

/** GET /data/{snapshot}/{file}: the file, whole or a byte range, or 304 when the client has it. */
export async function snapshotFileResponse(request: Request, snapshot: string, file: string): Promise<Response> {
  const found = await snapshotFile(snapshot, file);
  if (!found) return notFound(`No file ${file} in a snapshot ${snapshot}: GET /data lists the snapshots and their files`);
  const etag = `"${found.sha256}"`;
  const headers: Record<string, string> = {
    ...PUBLIC_DOCUMENT_HEADERS,
    ETag: etag,
    "Cache-Control": IMMUTABLE,
    "Accept-Ranges": "bytes",
    "Content-Type": contentType(file),
  };
  if (matchesETag(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  // If-Range with another validator: the client's copy is not this file, so it gets the whole of it.
  const ifRange = request.headers.get("if-range");
  const range = ifRange && ifRange.trim() !== etag ? null : byteRange(request.headers.get("range"), found.bytes);
  if (range === "unsatisfiable") return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${found.bytes}` } });
  const { start, end } = range ?? { start: 0, end: found.bytes - 1 };
  const length = Math.max(0, end - start + 1);
  const body = request.method === "HEAD" || length === 0 ? null : (Readable.toWeb(createReadStream(found.path, { start, end })) as ReadableStream<Uint8Array>);
  headers["Content-Length"] = String(length);
  if (range) headers["Content-Range"] = `bytes ${start}-${end}/${found.bytes}`;
  return new Response(body, { status: range ? 206 : 200, headers });
}

/** GET /.well-known/claims-data-key: the public key that verifies every manifest.sig, as SPKI PEM. */
export function dataKeyResponse(): Response {
  return new Response(publicKeyPem(signingKey()), {
    headers: { ...PUBLIC_DOCUMENT_HEADERS, "Content-Type": "text/plain; charset=us-ascii", "Cache-Control": "public, max-age=3600" },
  });
}
