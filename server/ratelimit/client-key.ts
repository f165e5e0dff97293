// The identity a client address is limited under (docs/security.md, "Limits"). An IPv4 address is one
// client. An IPv6 address is not: a subscriber is routed a whole /64 (often more) and picks addresses in
// it at will, so a limit keyed on the full address gives one client unlimited identities. IPv6 clients
// are keyed by their prefix (RATE_LIMIT_IPV6_PREFIX, default 64); an IPv4-mapped IPv6 address
// (::ffff:203.0.113.7, what a dual-stack socket reports) is the IPv4 client it carries.
import ipaddr from "ipaddr.js";

export const DEFAULT_IPV6_PREFIX = 64;

/**
 * Keys already worked out, per prefix: a client sends many requests, and parsing its address anew
 * each time was 4–10 % of a cheap API request (docs/benchmarks/2026-11-25-api-path.md). Bounded: emptied
 * when full.
 */
const known = new Map<string, string>();
const KNOWN_MAX = 10_000;

export function clientKey(ip: string, ipv6Prefix = DEFAULT_IPV6_PREFIX): string {
  const memo = `${ipv6Prefix}|${ip}`;
  const hit = known.get(memo);
  if (hit !== undefined) return hit;
  const key = computeClientKey(ip, ipv6Prefix);
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(memo, key);
  return key;
}

function computeClientKey(ip: string, ipv6Prefix: number): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.parse(ip);
  if (parsed instanceof ipaddr.IPv4) return parsed.toString();
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  const bytes = parsed.toByteArray();
  for (let bit = ipv6Prefix; bit < 128; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6Prefix}`;
}
