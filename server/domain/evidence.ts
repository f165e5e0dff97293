// What evidence is: its position on the claim and the kinds of content it carries. Plain constants:
// the request schemas (server/contract/evidence.ts) and the browser's forms both read them.
export const POSITIONS = ["supports", "opposes", "neutral"] as const;
export const CONTENT_TYPES = ["text", "link", "file", "code", "data"] as const;
/** Longest optional title and excerpt that describe a piece of evidence (docs/features/friction.md). */
export const TITLE_MAX = 200;
export const EXCERPT_MAX = 1000;
