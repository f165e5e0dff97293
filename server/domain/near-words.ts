// The full-text half of similar claims (docs/features/arguments.md#similar-claims): a statement near
// the text shares all of its words, or else all but one (one word added, dropped, changed or
// mistyped). Both as tsqueries over the text's lexemes, answered by the statements' full-text index
// from the words' own entries. "All but one" — `(b & c) | (a & c) | (a & b)` for a, b, c — costs the
// index several times what "all" does, so it is asked only when "all" finds nothing; the trigram
// index, which must merge an entry per three letters of the whole text, only when both find nothing.

/**
 * The most of a text that similar claims and the search's typo fallback read (docs/features/arguments.md#what-a-search-reads):
 * its first 200 characters. What a trigram comparison costs grows with the length of both texts (the
 * trigram index merges an entry per three letters, the comparison re-reads every letter, per row), so a
 * 5,000-character text cost 25 times a 200-character one. Statements are scored on the same prefix, so
 * two that begin alike over 200 characters are as near as their beginnings.
 */
export const SEARCH_TEXT_PREFIX_CHARS = 200;

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * The first SEARCH_TEXT_PREFIX_CHARS characters (code points: never half a surrogate pair) of `text`,
 * ending at a word's end: a word cut in two would bring trigrams and a lexeme that no statement has.
 * A prefix that is all one word keeps its cut.
 */
export function searchPrefix(text: string, chars = SEARCH_TEXT_PREFIX_CHARS): string {
  if (text.length <= chars) return text;
  // A code point is one or two UTF-16 units: 2 × chars + 1 units hold more than `chars` of them when the text does.
  const points = Array.from(text.slice(0, 2 * chars + 1));
  if (points.length <= chars) return text;
  let end = chars;
  if (WORD_CHAR.test(points[end - 1]) && WORD_CHAR.test(points[end])) {
    let back = end - 1;
    while (back > 0 && WORD_CHAR.test(points[back - 1])) back--;
    if (back > 0) end = back;
  }
  return points.slice(0, end).join("").trimEnd();
}

/** The most lexemes "all but one" is built from: the longest (stems of rarer words, mostly). */
export const MAX_NEAR_LEXEMES = 12;
/** Texts with fewer lexemes than this have no "all but one": one of two or three words is too little. */
const MIN_LEXEMES_FOR_ONE_MISSING = 4;

/** A lexeme as a tsquery operand: quoted, with its quote and backslash escaped. */
const operand = (lexeme: string) => `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;

const every = (words: readonly string[]) => words.map(operand).join(" & ");

/**
 * The tsquery texts (lexemes already normalised by the statements' configuration) to try in order:
 * all of `lexemes`, then all but one of the longest MAX_NEAR_LEXEMES; none without a lexeme.
 */
export function nearWordsQueries(lexemes: readonly string[]): string[] {
  const words = [...new Set(lexemes)].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
  if (words.length === 0) return [];
  if (words.length < MIN_LEXEMES_FOR_ONE_MISSING) return [every(words)];
  const longest = words.slice(0, MAX_NEAR_LEXEMES);
  return [every(words), longest.map((_, skip) => `(${every(longest.filter((_, i) => i !== skip))})`).join(" | ")];
}
