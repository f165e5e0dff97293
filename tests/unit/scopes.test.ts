import { describe, expect, it } from "vitest";
import { API_KEY_SCOPES, requiredScope, scopeAllows } from "../../server/domain/scopes.ts";
import { apiKeyMatches, generateApiKey, hashApiKey, isWellFormedApiKey, lookupPrefix } from "../../server/auth/api-keys.ts";

describe("requiredScope", () => {
  it("a declared scope wins; a query needs read; an undeclared mutation is closed to keys", () => {
    expect(requiredScope("vote", "mutation")).toBe("vote");
    expect(requiredScope(undefined, "query")).toBe("read");
    expect(requiredScope(undefined, "mutation")).toBe("account");
    expect(requiredScope("account", "query")).toBe("account");
  });
});

describe("scopeAllows", () => {
  it("unrestricted credentials (access tokens, sessions) pass everything, account included", () => {
    for (const s of [...API_KEY_SCOPES, "account"] as const) expect(scopeAllows(null, s)).toBe(true);
  });
  it("a key passes exactly its scopes, never account", () => {
    expect(scopeAllows(["read"], "read")).toBe(true);
    expect(scopeAllows(["read"], "vote")).toBe(false);
    expect(scopeAllows(["vote", "write"], "write")).toBe(true);
    expect(scopeAllows([...API_KEY_SCOPES], "account")).toBe(false);
    expect(scopeAllows([], "read")).toBe(false);
  });
});

describe("key material", () => {
  it("clm_ + 40 base62 characters, prefix of 12, unique, hash matches only its key", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const { key, prefix, hash } = generateApiKey();
      expect(isWellFormedApiKey(key)).toBe(true);
      expect(prefix).toBe(key.slice(0, 12));
      expect(lookupPrefix(key)).toBe(prefix);
      expect(hash).toBe(hashApiKey(key));
      expect(seen.has(key)).toBe(false);
      seen.add(key);
    }
    const { key, hash } = generateApiKey();
    expect(apiKeyMatches(key, hash)).toBe(true);
    expect(apiKeyMatches(`${key.slice(0, -1)}${key.at(-1) === "a" ? "b" : "a"}`, hash)).toBe(false);
    expect(apiKeyMatches(key, "00")).toBe(false);
  });
  it("characters are spread over the whole alphabet (no modulo bias toward the first ones)", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const c of generateApiKey().key.slice(4)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 80,000 characters: folding a byte (0–255) onto 62 symbols would give "0"–"7" 5/256 each against
    // 4/256 for the rest (+25 %); rejection sampling keeps them equal (the means differ by ≈1 %).
    const mean = (chars: string[]) => chars.reduce((sum, c) => sum + (counts.get(c) ?? 0), 0) / chars.length;
    const first = [..."01234567"];
    const rest = [...counts.keys()].filter((c) => !first.includes(c));
    expect(mean(first) / mean(rest)).toBeLessThan(1.1);
  });
  it("refuses shapes that are not keys", () => {
    for (const bad of ["clm_", "clm_short", `clm_${"a".repeat(39)}`, `clm_${"a".repeat(41)}`, `clm_${"a".repeat(39)}-`, `CLM_${"a".repeat(40)}`]) {
      expect(isWellFormedApiKey(bad)).toBe(false);
    }
  });
});
