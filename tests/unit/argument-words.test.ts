// Arguments' numbers in plain words (server/domain/argument-words.ts; docs/features/arguments.md#in-plain-words).
import { describe, expect, it } from "vitest";
import { balanceWords, relevanceWords, weightWords } from "../../server/domain/argument-words.ts";

describe("argument words", () => {
  it("names relevance by the nearest step of the rating scale, with how many rated", () => {
    expect(relevanceWords({ value: null, votes: 0 })).toBe("Relevance not rated yet");
    expect(relevanceWords({ value: 0.85, votes: 3 })).toBe("Strongly relevant, by 3 ratings");
    expect(relevanceWords({ value: 0.95, votes: 1 })).toBe("Decisive, by 1 rating");
    expect(relevanceWords({ value: 0.1, votes: 2 })).toBe("Irrelevant, by 2 ratings");
  });

  it("says a weight as a word and out of 100, or what it waits for", () => {
    expect(weightWords(null)).toBe("No weight yet: it needs votes on it and a relevance rating");
    expect(weightWords(0.62)).toBe("Weight: strong (62 of 100)");
    expect(weightWords(0.4)).toBe("Weight: moderate (40 of 100)");
    expect(weightWords(0.05)).toBe("Weight: weak (5 of 100)");
    expect(weightWords(0)).toBe("Weight: none (0 of 100)");
  });

  it("says which way the arguments lean, with the sample it rests on", () => {
    expect(balanceWords({ balance: 0, supports: 1, opposes: 0, weighed: 0 })).toBe(
      "No argument carries weight yet (1 for, 0 against): weights come from votes and relevance ratings.",
    );
    expect(balanceWords({ balance: 0.4, supports: 2, opposes: 1, weighed: 2 })).toBe("The arguments lean towards the claim (2 for, 1 against; 2 of 3 weighed).");
    expect(balanceWords({ balance: -0.3, supports: 1, opposes: 2, weighed: 3 })).toBe("The arguments lean against the claim (1 for, 2 against; 3 of 3 weighed).");
    expect(balanceWords({ balance: 0.01, supports: 1, opposes: 1, weighed: 2 })).toBe("The arguments are evenly balanced (1 for, 1 against; 2 of 2 weighed).");
  });
});
