// The rules a webhook URL must satisfy (docs/features/following.md): https, and only public unicast addresses —
// no loopback, private, link-local (the cloud metadata address 169.254.169.254 included), unique-local,
// multicast, reserved, IPv4-mapped IPv6 or other special ranges. Checked at registration on every
// address the host resolves to, and again on the connected address (server/services/webhook-http.ts).
//
// One rule for both (docs/security.md, "Webhook addresses"): ipaddr.js (a declared dependency, the
// same copy request-filtering-agent uses at delivery) names the special ranges — an address whose
// range() is not "unicast" is refused — and DENIED_RANGES adds what that list still calls unicast:
// every IPv6 address outside 2000::/3, the only block IANA allocates for global unicast (this takes
// the IPv4-compatible ::a.b.c.d / ::7f00:1, NAT64's 64:ff9b::/96, 100::/64 and site-local fec0::/10).
import ipaddr from "ipaddr.js";

/**
 * The one refusal of a host whose addresses are not all public — or that has none (it does not
 * resolve): the same words either way, so registration answers no DNS questions about internal names.
 */
export const NOT_PUBLIC = "must resolve only to public addresses";

/** Refused beside ipaddr.js's special ranges; request-filtering-agent's denyIPAddressList at delivery. */
export const DENIED_RANGES: readonly string[] = ["::/3", "4000::/2", "8000::/1"];

const deniedRanges = DENIED_RANGES.map((cidr) => ipaddr.parseCIDR(cidr));

/** Whether an address may receive webhooks: a public unicast address. */
export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (parsed.range() !== "unicast") return false;
  return !deniedRanges.some((range) => parsed.kind() === range[0].kind() && parsed.match(range));
}

/**
 * The URL's shape: parseable, https (http too when private addresses are allowed), no credentials.
 * Returns the reason it is refused, or null.
 */
export function refusedUrlShape(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return "must be an https:// URL";
  if (url.username || url.password) return "must not contain credentials";
  if (!url.hostname) return "must name a host";
  return null;
}

/** The host of a URL as an IP literal, without IPv6 brackets; null when it is a name. */
export function ipLiteralHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return ipaddr.isValid(host) ? host : null;
}
