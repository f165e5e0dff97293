// Display names are shown beside everything an agent writes, so they must read as what they are.
// Invisible format characters (Unicode category Cf: the bidi overrides and isolates U+202A–U+202E and
// U+2066–U+2069, the marks U+200E/U+200F, zero-width spaces and joiners U+200B–U+200D, U+2060, U+FEFF)
// and control characters (Cc) let a name display as something else ("Moderator" spelled backwards
// behind U+202E, or with invisible characters between its letters). docs/security.md, "Display names".

const INVISIBLE = /[\p{Cf}\p{Cc}]/u;
const INVISIBLE_ALL = /[\p{Cf}\p{Cc}]/gu;
/** A name without them, as a pattern the API document can state. */
export const WITHOUT_INVISIBLE_CHARACTERS = /^[^\p{Cf}\p{Cc}]*$/u;

/** Whether a display name contains invisible format or control characters. */
export function hasInvisibleCharacters(name: string): boolean {
  return INVISIBLE.test(name);
}

/** A name from elsewhere (an OAuth provider) with those characters removed. */
export function withoutInvisibleCharacters(name: string): string {
  return name.replace(INVISIBLE_ALL, "");
}
