// What a client may register (docs/features/mcp.md#oauth, step 3): public clients whose redirect URIs
// a person can check, a name a consent page can show, and nothing this server would have to fetch or
// keep on the client's word. The provider calls these checks at registration and again whenever it
// loads a stored client (a client registered before a rule is refused from then on).
import { errors } from "oidc-provider";
import { hasInvisibleCharacters } from "../domain/display-name.ts";
import { isStorableText } from "../domain/text-guard.ts";
import { firstUnstorableString } from "./artifacts.ts";

/** What one registration may hold: a name a consent page can show, a few redirect URIs, all under 4 KiB stored. */
export const CLIENT_NAME_MAX_CHARS = 100;
export const REDIRECT_URIS_MAX = 10;
export const CLIENT_METADATA_MAX_BYTES = 4 * 1024;

/** Characters no OAuth parameter carries: control characters (NUL, line breaks…), or text the database cannot store. */
export function isParameterText(value: string): boolean {
  return isStorableText(value) && !/\p{Cc}/u.test(value);
}

export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}

/** Registration accepts https redirect URIs and loopback ones on any port (RFC 8252), nothing else. */
function checkRedirectUris(value: unknown): void {
  if (!Array.isArray(value)) return;
  if (value.length > REDIRECT_URIS_MAX) throw new errors.InvalidClientMetadata(`redirect_uris: at most ${REDIRECT_URIS_MAX}`);
  for (const uri of value) {
    const parsed = typeof uri === "string" ? URL.parse(uri) : null;
    if (!parsed) throw new errors.InvalidRedirectUri("redirect_uris must only contain valid uris");
    if (parsed.protocol === "https:") continue;
    if (parsed.protocol === "http:" && isLoopback(parsed.hostname)) continue;
    throw new errors.InvalidRedirectUri("redirect_uris must use https, or http on a loopback address (localhost, 127.0.0.1)");
  }
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
 * whenever a stored client is loaded); the provider calls the validator once per property named here,
 * with the whole metadata.
 */
export const clientMetadataRules = {
  properties: ["redirect_uris", "client_name"],
  validator(_ctx: unknown, key: string, value: unknown, metadata: unknown) {
    if (key === "redirect_uris") {
      checkClientMetadata(metadata as Record<string, unknown>);
      checkRedirectUris(value);
    }
    if (key === "client_name") checkClientName(value);
  },
};
