// The one bounded body reader (docs/security.md#every-way-in "Bodies are bounded everywhere"): every route that reads a
// body reads it through here, from a node request (the REST adapter under `npm start`) or a Web Request
// (route handlers: /api/v1 under Next, /api/trpc, /api/auth). It stops at the limit, reads nothing
// more and buffers nothing past it: a declared Content-Length over the limit is refused before a byte
// is read, a chunked body as soon as the running count passes the limit.
// A body over the limit is answered by the door (server/door/answers.ts: bodyTooLarge).
import type { IncomingMessage } from "node:http";
import { MAX_BODY_BYTES } from "../door/answers.ts";

export { MAX_BODY_BYTES };

export const TOO_LARGE = "too-large" as const;
export type BoundedBody = Buffer | typeof TOO_LARGE;

/** Whether the declared Content-Length is over the limit (absent or unparsable: not declared). */
export function declaresTooLarge(contentLength: string | string[] | null | undefined, limit = MAX_BODY_BYTES): boolean {
  const value = Array.isArray(contentLength) ? contentLength[0] : contentLength;
  if (value === null || value === undefined || value === "") return false;
  const declared = Number(value);
  return Number.isFinite(declared) && declared > limit;
}

/** The client closed or reset the connection before its body arrived: nobody is left to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super("client disconnected");
    this.name = "ClientGoneError";
  }
}

export function readNodeBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BoundedBody> {
  if (declaresTooLarge(req.headers["content-length"], limit)) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    // The client may have gone while identity and rate limits were checked: a destroyed request
    // emits nothing more, so settle now instead of waiting forever.
    if (req.destroyed && !req.readableEnded) {
      reject(new ClientGoneError());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        // Stop reading: what is still in flight stays in the socket, which the answer closes.
        req.pause();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    // A request stream's error is the connection's ("aborted", ECONNRESET): the client is gone.
    const onError = () => {
      cleanup();
      reject(new ClientGoneError());
    };
    const onClose = () => {
      if (req.readableEnded) return;
      cleanup();
      reject(new ClientGoneError());
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

export async function readWebBody(request: Request, limit = MAX_BODY_BYTES): Promise<BoundedBody> {
  if (declaresTooLarge(request.headers.get("content-length"), limit)) {
    await request.body?.cancel().catch(() => {});
    return TOO_LARGE;
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * The same request with its body read (bounded) into memory, for handlers that read bodies themselves
 * (tRPC's fetch adapter, NextAuth): they then see at most `limit` bytes. TOO_LARGE when over.
 */
export async function withBoundedBody(request: Request, limit = MAX_BODY_BYTES): Promise<Request | typeof TOO_LARGE> {
  if (request.method === "GET" || request.method === "HEAD") return request;
  const body = await readWebBody(request, limit);
  if (body === TOO_LARGE) return TOO_LARGE;
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  headers.delete("transfer-encoding");
  return new Request(request.url, { method: request.method, headers, body: new Uint8Array(body), signal: request.signal });
}
