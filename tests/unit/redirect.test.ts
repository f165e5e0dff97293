import { describe, expect, it } from "vitest";
import { safeRedirectPath, withQueryParam } from "../../server/domain/redirect.ts";

describe("safeRedirectPath", () => {
  it.each([
    ["/", "/"],
    ["/claims", "/claims"],
    ["/claims?sort=new#top", "/claims?sort=new#top"],
    ["/a/../b", "/b"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
  ])("keeps the path %j", (value, expected) => {
    expect(safeRedirectPath(value)).toBe(expected);
  });

  it.each([
    "https://evil.example/",
    "HTTPS://evil.example",
    "//evil.example",
    "///evil.example",
    "/.//evil.example",
    "/..//evil.example",
    "/a/../..//evil.example",
    "/\\evil.example",
    "\\/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/ /evil.example",
    "javascript:alert(1)",
    "mailto:a@b.c",
    "evil.example",
    "claims",
    "",
    null,
    undefined,
    `/${"a".repeat(2048)}`,
  ])("refuses %j", (value) => {
    expect(safeRedirectPath(value as string)).toBeNull();
  });
});

describe("withQueryParam", () => {
  it("adds the parameter before the fragment, keeping the query", () => {
    expect(withQueryParam("/claims?sort=new#top", "code", "oc_1")).toBe("/claims?sort=new&code=oc_1#top");
    expect(withQueryParam("/", "code", "a b")).toBe("/?code=a+b");
  });

  it("replaces a code already in the path", () => {
    expect(withQueryParam("/?code=old", "code", "new")).toBe("/?code=new");
  });
});
