// Text that PostgreSQL cannot store as sent. A NUL character makes every text parameter fail
// ("invalid byte sequence for encoding UTF8: 0x00", a 500), and an unpaired UTF-16 surrogate is
// silently replaced by U+FFFD on the way to the database, so what is stored would differ from what
// was sent. Both are refused up front, for every string anywhere in a procedure's input.

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(value: string): boolean {
  return !value.includes("\u0000") && !UNPAIRED_SURROGATE.test(value);
}

/**
 * The path ("content", "tags.2") of the first string in `input` that is not storable text, or null.
 * Iterative, because a 256 KiB body can nest objects tens of thousands of levels deep.
 */
export function firstUnstorableField(input: unknown): string | null {
  // Each entry links to its parent, so that deep nesting costs no copied paths.
  type Entry = { value: unknown; key: string; parent: Entry | null };
  const pathOf = (entry: Entry): string => {
    const keys: string[] = [];
    for (let e: Entry | null = entry; e?.parent; e = e.parent) keys.unshift(e.key);
    return keys.length ? keys.join(".") : "body";
  };
  const stack: Entry[] = [{ value: input, key: "", parent: null }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const { value } = entry;
    if (typeof value === "string") {
      if (!isStorableText(value)) return pathOf(entry);
    } else if (value !== null && typeof value === "object") {
      // Reversed, so that fields come off the stack in document order.
      for (const [key, child] of Object.entries(value).reverse()) {
        stack.push({ value: child, key, parent: entry });
      }
    }
  }
  return null;
}
