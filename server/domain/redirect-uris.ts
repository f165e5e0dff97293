// Where an MCP client may have the person's browser sent with a code (docs/features/mcp.md#oauth,
// "Redirect URIs"): a web address (https), a program on this computer (http on a loopback address,
// RFC 8252 §7.3, any port), or an app's own private-use scheme (RFC 8252 §7.1: reverse-domain form such
// as com.example.app:/cb, or one the operator allows by name, as cursor:// or vscode://). Never a
// scheme that runs code or reads the device, nor plain http to another host.

/** Schemes no app may claim: they run code (javascript:, vbscript:), carry their own content (data:, blob:), read the device (file:, filesystem:) or are the browser's own. */
export const REFUSED_SCHEMES: ReadonlySet<string> = new Set([
  "javascript",
  "vbscript",
  "data",
  "blob",
  "file",
  "filesystem",
  "about",
  "view-source",
  "ws",
  "wss",
  "ftp",
  "mailto",
  "tel",
  "sms",
]);

/** What a URI scheme looks like (RFC 3986 §3.1), lower-cased. */
export const SCHEME_PATTERN = /^[a-z][a-z0-9+.-]*$/;

/** The loopback host names of RFC 8252 §7.3 (URL.hostname keeps IPv6 brackets). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}

/** Why `scheme` cannot be an app's private-use scheme, or null. */
export function privateSchemeRefusal(scheme: string): string | null {
  if (!SCHEME_PATTERN.test(scheme)) return "is not a URI scheme";
  if (scheme === "http" || scheme === "https") return "is a web scheme";
  if (REFUSED_SCHEMES.has(scheme)) return "runs code or reads the device, and is never an app's";
  return null;
}

export type RedirectKind = "web" | "loopback" | "app";

/** The kind of a redirect URI that passed redirectUriRefusal. */
export function redirectKind(url: URL): RedirectKind {
  if (url.protocol === "https:") return "web";
  return url.protocol === "http:" ? "loopback" : "app";
}

/**
 * Why `uri` cannot be a redirect URI, or null: https; http on a loopback address (any port); or a
 * private-use scheme in reverse-domain form or among `namedSchemes`. The reason names the URI.
 */
export function redirectUriRefusal(uri: unknown, namedSchemes: readonly string[]): string | null {
  const shown = JSON.stringify(typeof uri === "string" ? uri.slice(0, 200) : uri);
  const url = typeof uri === "string" ? URL.parse(uri) : null;
  if (!url) return `${shown} is not an absolute URI`;
  if (url.hash || (typeof uri === "string" && uri.includes("#"))) return `${shown} has a fragment`;
  if (url.username || url.password) return `${shown} carries credentials`;
  if (url.protocol === "https:") return url.hostname ? null : `${shown} names no host`;
  if (url.protocol === "http:") {
    return isLoopbackHost(url.hostname) ? null : `${shown} uses http on a host that is not this computer (use https, or http on localhost, 127.0.0.1 or [::1])`;
  }
  const scheme = url.protocol.slice(0, -1);
  const refused = privateSchemeRefusal(scheme);
  if (refused) return `${shown}: the ${scheme}: scheme ${refused}`;
  if (scheme.includes(".") || namedSchemes.includes(scheme)) return null;
  return `${shown}: an app's own scheme must be in reverse-domain form (such as com.example.app:/callback, RFC 8252) or one this server allows (${namedSchemes.join(", ") || "none"})`;
}
