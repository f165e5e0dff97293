// Mounts the REST adapter on a bare node:http request/response pair (the production server).
import type { IncomingMessage, ServerResponse } from "node:http";
import { handleRest, MAX_BODY_BYTES, type RestRequest } from "./handler.ts";

function readBody(req: IncomingMessage): Promise<Buffer | "too-large"> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    req.resume(); // drain without buffering
    return Promise.resolve("too-large");
  }
  return new Promise((resolve, reject) => {
    // The client may have gone while identity and rate limits were checked: a destroyed request
    // emits nothing more, so settle now instead of waiting forever.
    if (req.destroyed && !req.readableEnded) {
      reject(new Error("client disconnected"));
      return;
    }
    req.once("close", () => {
      if (!req.readableEnded) reject(new Error("client disconnected"));
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        done = true;
        resolve("too-large");
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
  });
}

export async function handleNodeRest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const restReq: RestRequest = {
    method: req.method ?? "GET",
    url: req.url ?? "/",
    headers: req.headers,
    remoteAddress: req.socket.remoteAddress ?? "",
    readBody: () => readBody(req),
  };
  const out = await handleRest(restReq);
  res.writeHead(out.status, out.setCookies?.length ? { ...out.headers, "Set-Cookie": out.setCookies } : out.headers);
  res.end(out.body ?? undefined);
}
