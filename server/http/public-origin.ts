// The origin the service is reached at, for the absolute URLs it hands out (OAuth metadata, the MCP
// resource, WWW-Authenticate, /llms.txt): NEXTAUTH_URL when set (the configured public address), else
// the request's Host header, with the scheme a trusted proxy reports (TRUST_PROXY) or the URL's own.
// (Next hands route handlers a URL built from its own host name, not the one the client used.)
import { config } from "../config.ts";

export function publicOrigin(request: Request): string {
  const cfg = config();
  if (cfg.NEXTAUTH_URL) return new URL(cfg.NEXTAUTH_URL).origin;
  const url = new URL(request.url);
  const host = request.headers.get("host") ?? url.host;
  const forwardedProto = cfg.TRUST_PROXY > 0 ? request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
  const scheme = forwardedProto === "https" || forwardedProto === "http" ? forwardedProto : url.protocol.replace(":", "");
  return `${scheme}://${host}`;
}
