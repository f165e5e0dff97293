// The full-text half of similar claims (docs/features/arguments.md#similar-claims): a statement near
// the text shares all of its words, or else all but one (one word added, dropped, changed or
// mistyped). Both as tsqueries over the text's lexemes, answered by the statements' full-text index
// from the words' own entries. "All but one" — `(b & c) | (a & c) | (a & b)` for a, b, c — costs the
// index several times what "all" does, so it is asked only when "all" finds nothing; the trigram
// index, which must merge an entry per three letters of the whole text, only when both find nothing.

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
