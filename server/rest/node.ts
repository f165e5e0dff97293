// Mounts the REST adapter on a bare node:http request/response pair (the production server).
import type { IncomingMessage, ServerResponse } from "node:http";
import { readNodeBody } from "../http/body-limit.ts";
import { CLIENT_IP_HEADER, clientIpFromHeaders } from "../http/client-ip.ts";
import { handleRest, type RestRequest } from "./handler.ts";

export async function handleNodeRest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const restReq: RestRequest = {
    method: req.method ?? "GET",
    url: req.url ?? "/",
    headers: req.headers,
    remoteAddress: req.socket.remoteAddress ?? "",
    // Decided by the node-level guard when it ran (main.ts); else from the socket here.
    clientIp: req.headers[CLIENT_IP_HEADER] ? clientIpFromHeaders(req.headers) : undefined,
    readBody: () => readNodeBody(req),
  };
  const out = await handleRest(restReq);
  const headers: Record<string, string | string[]> = { ...out.headers };
  if (out.setCookies?.length) headers["Set-Cookie"] = out.setCookies;
  res.writeHead(out.status, headers);
  res.end(out.body ?? undefined);
}
