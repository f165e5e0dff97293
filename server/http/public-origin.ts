// The origin the service is reached at, for the absolute URLs it hands out (OAuth metadata, the MCP
// resource, WWW-Authenticate, /llms.txt): NEXTAUTH_URL, the configured public address, which
// production requires (server/config.ts), so there no URL follows a client's Host header. Only a
// development server without it takes the request's Host header, with the scheme a trusted proxy
// reports (TRUST_PROXY) or the URL's own. (Next hands route handlers a URL built from its own host
// name, not the one the client used.)
import type { IncomingMessage } from "node:http";
import { config } from "../config.ts";

export function publicOrigin(request: Request): string {
  const url = new URL(request.url);
  return originFrom(request.headers.get("host") ?? url.host, request.headers.get("x-forwarded-proto"), url.protocol.replace(":", ""));
}

/** The same from a page's request headers (server components see no URL; the scheme is http unless told). */
export function publicOriginOfHeaders(headers: Headers): string {
  return originFrom(headers.get("host") ?? "localhost", headers.get("x-forwarded-proto"), "http");
}

/** The same for a node request (the node-level guard, where the OAuth endpoints are served). */
export function publicOriginOfNode(req: IncomingMessage): string {
  const proto = req.headers["x-forwarded-proto"];
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  return originFrom(req.headers.host ?? "localhost", Array.isArray(proto) ? proto[0] : proto, encrypted ? "https" : "http");
}

function originFrom(host: string, forwardedProtoHeader: string | null | undefined, ownScheme: string): string {
  const cfg = config();
  if (cfg.NEXTAUTH_URL) return new URL(cfg.NEXTAUTH_URL).origin;
  const forwardedProto = cfg.TRUST_PROXY > 0 ? forwardedProtoHeader?.split(",")[0]?.trim() : undefined;
  const scheme = forwardedProto === "https" || forwardedProto === "http" ? forwardedProto : ownScheme;
  return `${scheme}://${host}`;
}
