// The one rule for "which IP is this client" (rate limits, auth brute-force limits). Behind a proxy
// the operator trusts (TRUST_PROXY), the first X-Forwarded-For hop; otherwise the connection's peer,
// never what the client claims — anyone could pick a fresh IP per request.

function hops(forwardedFor: string | string[] | null | undefined): string[] {
  const raw = Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? "");
  return raw
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
}

/** The hop appended last: the peer address that our own server (main.ts, or Next) put there. */
export function lastForwardedHop(forwardedFor: string | string[] | null | undefined): string | undefined {
  return hops(forwardedFor).at(-1);
}

export function clientIpOf(forwardedFor: string | string[] | null | undefined, peer: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const first = hops(forwardedFor)[0];
    if (first) return first;
  }
  return peer || "unknown";
}
