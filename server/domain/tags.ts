// Tag rules (docs/api.md#claims).

export const MAX_TAGS = 10;
export const MAX_TAG_LENGTH = 50;
export const TAG_PATTERN = /^[a-z0-9_-]{1,50}$/;

export const TAG_FORMAT_MESSAGE = "tags: each tag must be 1-50 characters of a-z, 0-9, _ or -";
export const TAG_COUNT_MESSAGE = `tags: at most ${MAX_TAGS} tags are allowed`;

/** A refusal names its rule for programs (docs/api.md#errors): a tag's format (each at most MAX_TAG_LENGTH) or too many tags. */
export type TagsResult = { ok: true; tags: string[] } | { ok: false; message: string; rule: "format" | "too_many"; max: number };

function normalize(tag: string): string {
  return tag.trim().toLowerCase();
}

/**
 * Trims and lower-cases each tag, validates it, removes duplicates (first occurrence keeps its
 * place) and only then enforces the limit of 10, so ["a", "A", ...10 more distinct] is judged on
 * its distinct tags. A blank tag is an error, not silently dropped.
 */
export function normalizeTags(input: readonly string[]): TagsResult {
  const tags: string[] = [];
  for (const raw of input) {
    const tag = typeof raw === "string" ? normalize(raw) : "";
    if (!TAG_PATTERN.test(tag)) return { ok: false, message: TAG_FORMAT_MESSAGE, rule: "format", max: MAX_TAG_LENGTH };
    if (!tags.includes(tag)) tags.push(tag);
  }
  if (tags.length > MAX_TAGS) return { ok: false, message: TAG_COUNT_MESSAGE, rule: "too_many", max: MAX_TAGS };
  return { ok: true, tags };
}

/**
 * The `tags` query filter: comma-separated and/or repeated (`?tags=a,b&tags=c`). Each part is
 * trimmed and lower-cased; empty parts and duplicates are dropped. A malformed tag is kept: it
 * simply matches no claim, which is more honest than silently widening the filter.
 */
export function parseTagQuery(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  const values = typeof value === "string" ? [value] : value;
  const tags = values.flatMap((v) => v.split(",")).map(normalize).filter((t) => t.length > 0);
  return [...new Set(tags)];
}

/**
 * A tags field as a person typed it ("Climate Change, Café!"), cleaned into tags the rules accept
 * where that is unambiguous: split at commas, accents dropped, lower-cased, spaces turned into "-",
 * other characters outside a-z, 0-9, "_" and "-" removed; empty parts and duplicates dropped. A tag
 * that is still too long is kept for the server to refuse with its message.
 */
export function cleanTagInput(text: string): string[] {
  const tags = text
    .split(",")
    .map((part) =>
      part
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "")
        .trim()
        .toLowerCase()
        .replace(/\s+/g, "-")
        .replace(/[^a-z0-9_-]/g, "")
        .replace(/-{2,}/g, "-")
        .replace(/^-+|-+$/g, ""),
    )
    .filter((tag) => tag.length > 0);
  return [...new Set(tags)];
}
