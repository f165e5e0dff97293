// The rules a webhook URL must satisfy (docs/features/following.md): https, and only public unicast addresses —
// no loopback, private, link-local (the cloud metadata address 169.254.169.254 included), unique-local,
// multicast, reserved, IPv4-mapped IPv6 or other special ranges. Checked at registration on every
// address the host resolves to, and again on the connected address (server/services/webhook-http.ts).
import ipaddr from "ipaddr.js";

/** Why an address is refused, or null when it is a public unicast address. */
export function refusedAddress(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return `${address} is not an IP address`;
  }
  const range = parsed.range();
  if (range === "unicast") return null;
  return `${address} is a ${range} address, not a public one`;
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
