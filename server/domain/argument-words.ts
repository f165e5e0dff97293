// Arguments' numbers in plain words (docs/features/arguments.md#in-plain-words), the same on the claim
// page and in its Markdown twin: how much an argument bears on its claim (the mean relevance rating and
// how many gave it), how much weight it carries (impact = truth × relevance), and which way the
// arguments lean (the balance), each with the sample it rests on.

/** The relevance scale's steps, as the rating control names them. */
export const RELEVANCE_WORDS: readonly { value: number; words: string }[] = [
  { value: 0, words: "Irrelevant" },
  { value: 0.25, words: "Slightly relevant" },
  { value: 0.5, words: "Somewhat relevant" },
  { value: 0.75, words: "Strongly relevant" },
  { value: 1, words: "Decisive" },
];

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "Strongly relevant, by 3 ratings" (the nearest step to the mean); "Relevance not rated yet" without any. */
export function relevanceWords(relevance: { value: number | null; votes: number }): string {
  if (relevance.value === null || relevance.votes === 0) return "Relevance not rated yet";
  const v = relevance.value;
  const step = RELEVANCE_WORDS.reduce((best, s) => (Math.abs(s.value - v) < Math.abs(best.value - v) ? s : best));
  return `${step.words}, by ${count(relevance.votes, "rating")}`;
}

/** "Weight: strong (72 of 100)"; without a weight, what it is waiting for. */
export function weightWords(impact: number | null): string {
  if (impact === null) return "No weight yet: it needs votes on it and a relevance rating";
  const of100 = Math.round(impact * 100);
  const word = impact >= 0.6 ? "strong" : impact >= 0.3 ? "moderate" : impact > 0 ? "weak" : "none";
  return `Weight: ${word} (${of100} of 100)`;
}

export interface BalanceSample {
  balance: number;
  /** Arguments for and against, and how many of them carry a weight (rated and voted on). */
  supports: number;
  opposes: number;
  weighed: number;
}

/** Below this, either way, the arguments are called even. */
const EVEN = 0.05;

/** "The arguments lean towards the claim (2 for, 1 against; 2 of 3 weighed)". */
export function balanceWords({ balance, supports, opposes, weighed }: BalanceSample): string {
  const total = supports + opposes;
  const sample = `${supports} for, ${opposes} against; ${weighed} of ${total} weighed`;
  if (weighed === 0) return `No argument carries weight yet (${supports} for, ${opposes} against): weights come from votes and relevance ratings.`;
  if (balance > EVEN) return `The arguments lean towards the claim (${sample}).`;
  if (balance < -EVEN) return `The arguments lean against the claim (${sample}).`;
  return `The arguments are evenly balanced (${sample}).`;
}
