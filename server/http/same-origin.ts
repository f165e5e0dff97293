// Cross-site request refusal for the endpoints a session cookie authenticates (the web tRPC endpoint),
// and for /mcp, whose transport specification asks servers to check Origin (docs/features/mcp.md).
// A browser tells where a request comes from twice: Sec-Fetch-Site (modern browsers) and Origin (sent
// on every cross-origin request and on every POST). Either one naming another site refuses the call:
// a page elsewhere must not act with the visitor's cookie (CSRF). A request with neither does not come
// from a browser page on another site (programs, server-side fetches), so it passes.

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
 * Why a request is refused as cross-site, or null when it may go on. `hostCounts: false` leaves the
 * request's own Host out of "this app's" origins, so only NEXTAUTH_URL's is: a DNS-rebinding page
 * names its own host in Host and Origin alike (used by /mcp when a public URL is configured).
 */
export function crossSiteRefusal(headers: Headers, publicUrl: string | undefined, behindProxy: boolean, opts: { hostCounts?: boolean } = {}): string | null {
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return "Cross-site request refused";
  const origin = headers.get("origin");
  const hosts = opts.hostCounts === false ? [] : [headers.get("host"), behindProxy ? headers.get("x-forwarded-host") : null];
  if (origin !== null && !ownOrigin(origin, hosts, publicUrl)) return "Cross-site request refused";
  return null;
}
