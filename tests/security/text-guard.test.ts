// The input guard behind "NUL and unpaired surrogates are a 400, not a database error"
// (server/domain/text-guard.ts, applied to every procedure in server/api/trpc.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstUnstorableField, isStorableText } from "../../server/domain/text-guard.ts";

describe("firstUnstorableField", () => {
  it("names the first offending field in document order, nested paths included", () => {
    expect(firstUnstorableField({ statement: "fine", tags: ["ok", "b\u0000d"], extra: "\uD800" })).toBe("tags.1");
    expect(firstUnstorableField({ a: { b: [{ c: "x\uDC00" }] } })).toBe("a.b.0.c");
    expect(firstUnstorableField("\u0000")).toBe("body");
    expect(firstUnstorableField({ text: "emoji 😀 and RTL \u202E are fine" })).toBeNull();
  });

  it("looks at path ids too: an id with a NUL never reaches the database", () => {
    expect(firstUnstorableField({ claim_id: "\u0000", value: 1 })).toBe("claim_id");
    expect(firstUnstorableField({ agent_id: "ok", nested: { tag: "a\u0000" } })).toBe("nested.tag");
  });

  it("survives the deepest nesting a 256 KiB body allows", () => {
    const depth = 60_000;
    const deep = JSON.parse(`${'{"a":'.repeat(depth)}"\\u0000"${"}".repeat(depth)}`);
    expect(firstUnstorableField(deep)?.split(".")).toHaveLength(depth);
    expect(firstUnstorableField(JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`))).toBeNull();
  });

  it("agrees with what UTF-8 can carry: storable text survives an encode/decode round trip (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), fc.constantFrom("", "\uD800", "\uDFFF", "\u0000"), (s, extra) => {
        const text = s + extra;
        const roundTrips = Buffer.from(text, "utf8").toString("utf8") === text;
        expect(isStorableText(text)).toBe(roundTrips && !text.includes("\u0000"));
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});
