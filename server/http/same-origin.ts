// Cross-site request refusal for the endpoints a session cookie authenticates (the web tRPC endpoint),
// and for /mcp, whose transport specification asks servers to check Origin (docs/features/mcp.md).
// A browser tells where a request comes from twice: Sec-Fetch-Site (modern browsers) and Origin (sent
// on every cross-origin request and on every POST). Either one naming another site refuses the call:
// a page elsewhere must not act with the visitor's cookie (CSRF). A request with neither does not come
// from a browser page on another site (programs, server-side fetches), so it passes.
import { config } from "../config.ts";

/**
 * The origins this app is served on: the one the request addressed (its Host, or behind trusted
 * proxies the X-Forwarded-Host they set), and NEXTAUTH_URL's.
 */
function ownOrigin(origin: string, hosts: (string | null)[], publicUrl: string | undefined): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (hosts.some((host) => host && parsed.host === host.split(",").pop()!.trim().toLowerCase())) return true;
  if (publicUrl) {
    try {
      return parsed.origin === new URL(publicUrl).origin;
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * Whether a browser page on another site sent this request (then it is refused: 403, the door's
 * CROSS_SITE). "This app's" origins are the request's own host (behind trusted proxies also
 * X-Forwarded-Host) and NEXTAUTH_URL's. `publicUrlOnly`: with a configured public URL only its origin
 * counts, not the request's Host: a DNS-rebinding page names its own host in Host and Origin alike
 * (/mcp, whose transport specification asks servers to check Origin); without one, only a loopback origin.
 */
export function fromAnotherSite(headers: Headers, { publicUrlOnly = false }: { publicUrlOnly?: boolean } = {}): boolean {
  const { NEXTAUTH_URL: publicUrl, TRUST_PROXY } = config();
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return true;
  const origin = headers.get("origin");
  if (origin === null) return false;
  // Without a configured public URL (a development server), only a page on this machine may call /mcp:
  // a rebinding page names its own host in Host and Origin alike, so matching them proves nothing.
  if (publicUrlOnly && !publicUrl && !isLoopbackOrigin(origin)) return true;
  const hosts = publicUrlOnly && publicUrl ? [] : [headers.get("host"), TRUST_PROXY > 0 ? headers.get("x-forwarded-host") : null];
  return !ownOrigin(origin, hosts, publicUrl);
}

/** localhost, 127.0.0.1 or [::1], any port (what the MCP specification calls a local origin). */
function isLoopbackOrigin(origin: string): boolean {
  try {
    return ["localhost", "127.0.0.1", "[::1]"].includes(new URL(origin).hostname);
  } catch {
    return false;
  }
}
