// Where a browser may be sent after signing in: a path on this site, never another origin.
// `redirect_to` arrives from anyone's link, so an open redirect here would let a phishing page
// borrow this site's sign-in (and its one-time code) to send people elsewhere.

const PROBE_ORIGIN = "http://same-origin.invalid";
export const MAX_REDIRECT_LENGTH = 2048;

/**
 * The value as a same-origin path (with its query and fragment), or null when it is not one:
 * absolute URLs, scheme-relative `//host`, `/\host` (browsers read `\` as `/`), any scheme,
 * and control characters or spaces (browsers drop tabs and newlines, turning `/\t/host` into `//host`).
 */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_REDIRECT_LENGTH) return null;
  if (!value.startsWith("/") || value.startsWith("//")) return null;
  if (/[\\\s\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  // Dot segments are resolved by the parse: "/.//evil.com" and "/..//evil.com" become "//evil.com",
  // which a browser reads as another host.
  if (url.pathname.startsWith("//")) return null;
  return url.pathname + url.search + url.hash;
}

/** `path` with `name=value` added to its query (before any fragment). */
export function withQueryParam(path: string, name: string, value: string): string {
  const url = new URL(path, PROBE_ORIGIN);
  url.searchParams.set(name, value);
  return url.pathname + url.search + url.hash;
}
