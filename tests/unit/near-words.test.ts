// The full-text half of similar claims (server/domain/near-words.ts): all of a text's words, then all
// but one, as tsqueries.
import { describe, expect, it } from "vitest";
import { MAX_NEAR_LEXEMES, nearWordsQueries } from "../../server/domain/near-words.ts";

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
