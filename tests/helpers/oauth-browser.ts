// What a browser and an MCP client bring to an OAuth server, whichever server it is (in process or the
// production build): a cookie jar, PKCE, the client's callback and a web sign-in. No server code is
// imported here, so the tests against the built server can use it too.
import { createHash, randomBytes } from "node:crypto";

/** Cookies as a browser keeps them (name → value; paths ignored: every request here may carry them). */
export class Jar {
  private cookies = new Map<string, string>();
  take(headers: Headers) {
    for (const c of headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The MCP client's redirect URI in these tests (loopback: a public client's callback). */
export const CALLBACK = "http://127.0.0.1:51234/cb";

/** Signs in on the web as the sign-in page does (CSRF token, then the credentials callback); the jar keeps the session cookie. */
export async function webSignIn(base: string, jar: Jar, email: string, password = "Password123") {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  jar.take(csrf.headers);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  jar.take(res.headers);
}
