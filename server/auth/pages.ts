// The web pages the sign-in flows send a browser to (NextAuth's options and the OAuth hand-off both use them).
export const SIGN_IN_PAGE = "/signin";
/** Where NextAuth sends the browser after an OAuth sign-in; it mints the one-time code. */
export const HAND_OFF_PATH = "/auth/complete";
