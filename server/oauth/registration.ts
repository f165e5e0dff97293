// What a client may register (docs/features/mcp.md#oauth, step 3): public clients whose redirect URIs
// a person can check, a name a consent page can show, the scopes it will ask for, and nothing this
// server would have to fetch or keep on the client's word. The provider calls these checks at
// registration, again whenever it loads a stored client (a client registered before a rule is refused
// from then on), and on a Client ID Metadata Document it fetched.
import { errors } from "oidc-provider";
import { config } from "../config.ts";
import { hasInvisibleCharacters } from "../domain/display-name.ts";
import { redirectKind, redirectUriRefusal } from "../domain/redirect-uris.ts";
import { isStorableText } from "../domain/text-guard.ts";
import { firstUnstorableString } from "./artifacts.ts";
import { MCP_SCOPES, OPENID_SCOPES } from "./scopes.ts";

/** What one registration may hold: a name a consent page can show, a few redirect URIs, all under 4 KiB stored. */
export const CLIENT_NAME_MAX_CHARS = 100;
export const REDIRECT_URIS_MAX = 10;
export const CLIENT_METADATA_MAX_BYTES = 4 * 1024;

/** Every scope a client may register: the MCP resource's and the OpenID ones. */
export const REGISTRABLE_SCOPES: readonly string[] = [...MCP_SCOPES, ...OPENID_SCOPES];

/** Characters no OAuth parameter carries: control characters (NUL, line breaks…), or text the database cannot store. */
export function isParameterText(value: string): boolean {
  return isStorableText(value) && !/\p{Cc}/u.test(value);
}

/**
 * Redirect URIs: https, http on a loopback address, or an app's private-use scheme
 * (server/domain/redirect-uris.ts); several at once (Cursor registers three).
 */
function checkRedirectUris(value: unknown): void {
  if (!Array.isArray(value)) return;
  if (value.length > REDIRECT_URIS_MAX) throw new errors.InvalidClientMetadata(`redirect_uris: at most ${REDIRECT_URIS_MAX}`);
  const named = config().MCP_REDIRECT_SCHEMES;
  for (const uri of value) {
    const refused = redirectUriRefusal(uri, named);
    // (InvalidClientMetadata: a description that starts with redirect_uris is answered invalid_redirect_uri.)
    if (refused) throw new errors.InvalidClientMetadata(`redirect_uris: ${refused}`);
  }
}

/**
 * A client that does not say what it is (no `application_type`, as MCP clients send) and registers a
 * loopback or private-use redirect URI is a native app (RFC 8252), as it says by that URI: the
 * provider then takes a loopback redirect on any port at authorization time (RFC 8252 §7.3, as VS Code
 * picks a free port each time), and asks the person every time (a program on the computer could claim
 * that URI: RFC 8252 §8.6). Applied to a registration's body and to a fetched metadata document before
 * the provider reads them; a client that says `web` is held to it (https, or loopback on the registered port).
 */
export function withApplicationType(metadata: unknown): unknown {
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) return metadata;
  const { application_type: said, redirect_uris: uris } = metadata as Record<string, unknown>;
  if (said !== undefined || !Array.isArray(uris)) return metadata;
  const native = uris.some((uri) => {
    const url = typeof uri === "string" ? URL.parse(uri) : null;
    return url !== null && redirectKind(url) !== "web";
  });
  return native ? { ...metadata, application_type: "native" } : metadata;
}

/**
 * The consent page and the settings list show the name a client gives itself: it is refused as a
 * display name is (docs/security.md, "Display names") when it holds invisible format or control
 * characters — a right-to-left override would show "Claims" for "smialC" — and kept short.
 */
function checkClientName(value: unknown): void {
  if (value === undefined || typeof value !== "string") return;
  if (hasInvisibleCharacters(value)) {
    throw new errors.InvalidClientMetadata("client_name: must not contain invisible format or control characters (such as right-to-left overrides)");
  }
  if ([...value].length > CLIENT_NAME_MAX_CHARS) throw new errors.InvalidClientMetadata(`client_name: at most ${CLIENT_NAME_MAX_CHARS} characters`);
}

/**
 * The scopes a client registers with: those this server knows are kept (the official SDK registers
 * with the resource's scopes_supported), any other is dropped rather than failing the registration
 * (RFC 7591 §2 lets the server replace what it does not support; the answer says what was kept).
 */
function keepKnownScopes(value: unknown, metadata: Record<string, unknown>): void {
  if (value === undefined) return;
  if (typeof value !== "string") throw new errors.InvalidClientMetadata("scope: must be a space-separated string");
  const kept = REGISTRABLE_SCOPES.filter((scope) => value.split(" ").includes(scope));
  if (kept.length > 0) metadata.scope = kept.join(" ");
  else delete metadata.scope;
}

/**
 * Metadata that would make this server fetch a URL the client names (sector_identifier_uri is fetched
 * at registration: a request into our own network), or keys and request objects a public client
 * without keys has no use for.
 */
const REFUSED_METADATA = ["sector_identifier_uri", "jwks_uri", "jwks", "request_uris"] as const;

/** The whole registration: nothing fetched on the client's word, every string printable, and small. */
function checkClientMetadata(metadata: Record<string, unknown>): void {
  for (const key of REFUSED_METADATA) {
    if (metadata[key] !== undefined) throw new errors.InvalidClientMetadata(`${key}: not supported (public clients only)`);
  }
  const unfit = firstUnstorableString(metadata, isParameterText);
  if (unfit) throw new errors.InvalidClientMetadata(`${unfit}: must not contain control characters`);
  if (Buffer.byteLength(JSON.stringify(metadata)) > CLIENT_METADATA_MAX_BYTES) {
    throw new errors.InvalidClientMetadata(`client metadata: at most ${CLIENT_METADATA_MAX_BYTES / 1024} KiB`);
  }
}

/**
 * The provider's extraClientMetadata: the properties listed are validated (at registration, and again
 * whenever a stored client is loaded) before the provider's own checks, which see what these leave;
 * the provider calls the validator once per property named here, with the whole metadata.
 */
export const clientMetadataRules = {
  properties: ["redirect_uris", "client_name", "scope"],
  validator(_ctx: unknown, key: string, value: unknown, metadata: Record<string, unknown>) {
    if (key === "redirect_uris") {
      checkClientMetadata(metadata);
      checkRedirectUris(value);
    }
    if (key === "client_name") checkClientName(value);
    if (key === "scope") keepKnownScopes(value, metadata);
  },
};
