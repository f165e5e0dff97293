// A cookie the browser's script may read that says whether a NextAuth session is present (the session
// cookie itself is HttpOnly). Shared page renders say nothing about their viewer, so the web UI reads
// this hint to know at once whether to ask who is signed in (app/_lib/viewer.ts) or to show the
// anonymous header without a request. It only ever says "a session cookie was sent": who the viewer
// is, and whether the session is still good, the browser learns from auth.me. The guard keeps it in
// step on every page load: set when a session cookie arrives without it, cleared when it outlives it.
import type { IncomingMessage, ServerResponse } from "node:http";

import { VIEWER_HINT_COOKIE } from "../domain/viewer-hint.ts";

export { VIEWER_HINT_COOKIE };
const MAX_AGE_SECONDS = 30 * 24 * 3600;

const HINTED = new RegExp(`(?:^|;\\s*)${VIEWER_HINT_COOKIE}=1(?:;|$)`);

/** Whether the request carries NextAuth's session cookie (next-auth.session-token, its __Secure- form, its chunks .0, .1…). */
export function carriesSession(req: IncomingMessage): boolean {
  return req.headers.cookie?.includes("next-auth.session-token") ?? false;
}

export function isViewerHintCookie(setCookie: string): boolean {
  return setCookie.startsWith(`${VIEWER_HINT_COOKIE}=`);
}

/** Adds a Set-Cookie for the hint when it disagrees with the session cookie the request carries. */
export function syncViewerHint(req: IncomingMessage, res: ServerResponse): void {
  const session = carriesSession(req);
  const hinted = HINTED.test(req.headers.cookie ?? "");
  if (session === hinted) return;
  res.setHeader(
    "Set-Cookie",
    session
      ? `${VIEWER_HINT_COOKIE}=1; Path=/; Max-Age=${MAX_AGE_SECONDS}; SameSite=Lax`
      : `${VIEWER_HINT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`,
  );
}
