// /api/v1 under `next start` / `next dev` (any plain Next host): the same REST adapter as the production
// server, fed from the Web Request. In production (`npm start`), server/main.ts answers /api/v1
// before Next runs. The body goes through the one bounded reader; the client IP is the one the
// node-level guard decided (server/http/client-ip.ts).
import { readWebBody } from "~/server/http/body-limit.ts";
import { clientIpFromHeaders } from "~/server/http/client-ip.ts";
import { handleRest, type RestRequest } from "~/server/rest/handler.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

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
    remoteAddress: "",
    clientIp: clientIpFromHeaders(request.headers),
    readBody: () => readWebBody(request),
  };
  // Next compresses what this handler returns (its `compress`, in dev and start alike): one layer.
  const out = await handleRest(restReq, { compress: false });
  const responseHeaders = new Headers(out.headers);
  for (const cookie of out.setCookies ?? []) responseHeaders.append("Set-Cookie", cookie);
  const body = typeof out.body === "string" || out.body === null ? out.body : new Uint8Array(out.body);
  return new Response(body, { status: out.status, headers: responseHeaders });
}

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as OPTIONS, handler as HEAD };
