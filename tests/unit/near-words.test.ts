// The full-text half of similar claims (server/domain/near-words.ts): all of a text's words, then all
// but one, as tsqueries; and the prefix of a text that the searches read.
import { describe, expect, it } from "vitest";
import { MAX_NEAR_LEXEMES, nearWordsQueries, SEARCH_TEXT_PREFIX_CHARS, searchPrefix } from "../../server/domain/near-words.ts";

describe("nearWordsQueries", () => {
  it("is nothing without a word, and only every word for a short text", () => {
    expect(nearWordsQueries([])).toEqual([]);
    expect(nearWordsQueries(["tea"])).toEqual(["'tea'"]);
    expect(nearWordsQueries(["green", "tea", "lower"])).toEqual(["'green' & 'lower' & 'tea'"]);
  });

  it("then accepts any one word missing from a longer text", () => {
    expect(nearWordsQueries(["blood", "green", "pressur", "tea"])).toEqual([
      "'pressur' & 'blood' & 'green' & 'tea'",
      "('blood' & 'green' & 'tea') | ('pressur' & 'green' & 'tea') | ('pressur' & 'blood' & 'tea') | ('pressur' & 'blood' & 'green')",
    ]);
  });

  it("needs every word of a long text, or all but one of its longest, each once", () => {
    const words = Array.from({ length: 30 }, (_, i) => "w".repeat(i + 1));
    const [all, near] = nearWordsQueries([...words, ...words]);
    expect(new Set(all.match(/'w+'/g)).size).toBe(30);
    const operands = new Set(near.match(/'w+'/g));
    expect(operands.size).toBe(MAX_NEAR_LEXEMES);
    expect(operands.has(`'${"w".repeat(30)}'`)).toBe(true);
    expect(operands.has("'w'")).toBe(false);
  });

  it("escapes quotes and backslashes inside a lexeme", () => {
    expect(nearWordsQueries(["it's", "a\\b", "ccc"])).toEqual(["'it''s' & 'a\\\\b' & 'ccc'"]);
  });
});

describe("searchPrefix", () => {
  it(`keeps a text of ${SEARCH_TEXT_PREFIX_CHARS} characters or fewer as it is`, () => {
    expect(searchPrefix("Green tea lowers blood pressure")).toBe("Green tea lowers blood pressure");
    const exact = "a".repeat(SEARCH_TEXT_PREFIX_CHARS);
    expect(searchPrefix(exact)).toBe(exact);
  });

  it("cuts a longer one at the last word's end before the limit, never inside a word", () => {
    const words = "coffee ".repeat(100);
    const cut = searchPrefix(words);
    expect(cut.length).toBeLessThanOrEqual(SEARCH_TEXT_PREFIX_CHARS);
    expect(cut).toBe("coffee ".repeat(Math.floor((SEARCH_TEXT_PREFIX_CHARS + 1) / 7)).trimEnd());
    // A limit that falls between words keeps the word before it whole.
    expect(searchPrefix(`${"x".repeat(9)} ${"y".repeat(20)}`, 10)).toBe("x".repeat(9));
    expect(searchPrefix(`${"x".repeat(10)} yy`, 10)).toBe("x".repeat(10));
    // One word longer than the limit is cut: there is no word end to go back to.
    expect(searchPrefix("z".repeat(5000))).toBe("z".repeat(SEARCH_TEXT_PREFIX_CHARS));
  });

  it("counts characters, not UTF-16 units, and never splits a surrogate pair", () => {
    const emoji = "😀".repeat(SEARCH_TEXT_PREFIX_CHARS + 50);
    const cut = searchPrefix(emoji);
    expect(Array.from(cut)).toHaveLength(SEARCH_TEXT_PREFIX_CHARS);
    // encodeURIComponent refuses a lone surrogate.
    expect(() => encodeURIComponent(cut)).not.toThrow();
    const mixed = `${"é".repeat(150)} ${"😀".repeat(100)}`;
    expect(Array.from(searchPrefix(mixed)).length).toBeLessThanOrEqual(SEARCH_TEXT_PREFIX_CHARS);
    expect(() => encodeURIComponent(searchPrefix(mixed))).not.toThrow();
  });
});
