// Compressed responses (docs/api.md#conventions): a body of at least COMPRESS_MIN_BYTES is sent gzip- or
// brotli-encoded when the client's Accept-Encoding allows it; smaller ones cost more to encode than
// they save. The production server's /api/v1 adapter (server/rest/handler.ts) applies it; pages,
// /api/trpc and /api/v1 under a plain Next host (`next dev`, `next start`) are compressed by Next
// itself (its `compress`, on by default) — never both.
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

export const COMPRESS_MIN_BYTES = 1024;

export type ContentCoding = "br" | "gzip";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * The coding to send for an Accept-Encoding header (RFC 9110 §12.5.3): br, else gzip, each when its
 * q-value (or that of `*`) is above 0; null for identity. Brotli at quality 4: about gzip's CPU cost
 * for a smaller body (its default, 11, is tens of times slower).
 */
export function chooseCoding(acceptEncoding: string | undefined): ContentCoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepts = (coding: ContentCoding) => (q.get(coding) ?? q.get("*") ?? 0) > 0;
  if (accepts("br")) return "br";
  if (accepts("gzip") || ((q.get("x-gzip") ?? 0) > 0)) return "gzip";
  return null;
}

export function encode(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  // Off the event loop (libuv's thread pool): a large list does not hold up other requests.
  return coding === "br"
    ? brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipAsync(body);
}

/** `Vary` with Accept-Encoding added (once). */
export function varyOnEncoding(vary: string | undefined): string {
  if (!vary) return "Accept-Encoding";
  return /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}
