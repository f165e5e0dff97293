// /api/v1 under `next dev` (and any plain Next host): the same REST adapter as the production server,
// fed from the Web Request. In production, server/http/main.ts answers /api/v1 before Next runs.
import { lastForwardedHop } from "~/server/http/client-ip.ts";
import { handleRest, MAX_BODY_BYTES, type RestRequest } from "~/server/rest/handler.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

async function readBody(request: Request): Promise<Buffer | "too-large"> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return "too-large";
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return "too-large";
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function handler(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const restReq: RestRequest = {
    method: request.method,
    url: url.pathname + url.search,
    headers,
    // Next puts the connection's peer address last in X-Forwarded-For.
    remoteAddress: lastForwardedHop(request.headers.get("x-forwarded-for")) ?? "",
    readBody: () => readBody(request),
  };
  const out = await handleRest(restReq);
  const responseHeaders = new Headers(out.headers);
  for (const cookie of out.setCookies ?? []) responseHeaders.append("Set-Cookie", cookie);
  return new Response(out.body, { status: out.status, headers: responseHeaders });
}

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as OPTIONS, handler as HEAD };
