import { describe, expect, it } from "vitest";
import {
  USERNAME_PATTERN,
  usernameCandidates,
  usernameFromHints,
} from "../../server/domain/username.ts";

describe("usernames derived from a provider's profile", () => {
  it.each([
    [["octocat"], "octocat"],
    [["José García"], "Jose_Garcia"],
    [["jane.doe+news"], "jane_doe_news"],
    [["__a--b__"], "a_b"],
    [["", null, "second"], "second"],
    [["日本語", "Fallback Name"], "Fallback_Name"],
    [["jo"], "jo_user"],
    [[], "user"],
    [["日本語"], "user"],
  ])("%j → %s", (hints, expected) => {
    expect(usernameFromHints(hints)).toBe(expected);
    expect(usernameFromHints(hints)).toMatch(USERNAME_PATTERN);
  });

  it("cuts long hints to 30 characters", () => {
    expect(usernameFromHints(["x".repeat(80)])).toBe("x".repeat(30));
  });

  it("suffixes keep the name within 30 characters", () => {
    const zero = () => 0.0042;
    expect(usernameCandidates("a".repeat(30), zero)[1]).toBe(`${"a".repeat(25)}_0042`);
    expect(usernameCandidates("ada", zero)[1]).toBe("ada_0042");
  });

  it("offers the base first, then distinct valid variants", () => {
    let seed = 0;
    const random = () => ((seed = (seed * 9301 + 49297) % 233280) / 233280);
    const candidates = usernameCandidates("y".repeat(30), random);
    expect(candidates[0]).toBe("y".repeat(30));
    expect(new Set(candidates).size).toBe(candidates.length);
    for (const c of candidates) expect(c).toMatch(USERNAME_PATTERN);
  });
});
