// The name of the cookie that tells the browser's script a session is present (set by
// server/http/viewer-hint.ts, read by app/_lib/viewer.ts). A plain constant both sides import.
export const VIEWER_HINT_COOKIE = "claims-signed-in";
