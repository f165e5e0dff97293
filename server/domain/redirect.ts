// Where a browser may be sent after signing in: a path on this site, never another origin.
// `redirect_to` arrives from anyone's link, so an open redirect here would let a phishing page
// borrow this site's sign-in (and its one-time code) to send people elsewhere.

const PROBE_ORIGIN = "http://same-origin.invalid";
export const MAX_REDIRECT_LENGTH = 2048;

/**
 * What a same-origin path looks like, as a pattern the API document states: `/`, then path segments of
 * which only the last may be empty (an empty one, `//`, is what turns a path into another host, as sent
 * or once dot segments are resolved: "/.//evil.com" and "/a/../..//evil.com" become "//evil.com"), then
 * any query and fragment; no backslash (browsers read `\` as `/`), spaces or control characters
 * (browsers drop tabs and newlines, turning `/\t/host` into `//host`).
 */
export const SAFE_REDIRECT_PATTERN = /^\/(?:[^/?#\\\s\u0000-\u001f\u007f]+\/)*[^/?#\\\s\u0000-\u001f\u007f]*(?:[?#][^\\\s\u0000-\u001f\u007f]*)?$/;

/**
 * The value as a same-origin path (with its query and fragment, dot segments resolved), or null when it
 * is not one (SAFE_REDIRECT_PATTERN): absolute URLs, scheme-relative `//host`, `/\host`, any scheme.
 */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (typeof value !== "string" || value.length > MAX_REDIRECT_LENGTH || !SAFE_REDIRECT_PATTERN.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  // The pattern leaves no way off this origin; the parse, which browsers will do, is checked all the same.
  if (url.origin !== PROBE_ORIGIN || url.pathname.startsWith("//")) return null;
  return url.pathname + url.search + url.hash;
}

/** `path` with `name=value` added to its query (before any fragment). */
export function withQueryParam(path: string, name: string, value: string): string {
  const url = new URL(path, PROBE_ORIGIN);
  url.searchParams.set(name, value);
  return url.pathname + url.search + url.hash;
}
