import { describe, expect, it } from "vitest";
import { TAG_COUNT_MESSAGE, TAG_FORMAT_MESSAGE, normalizeTags, parseTagQuery } from "~/server/domain/tags";

describe("normalizeTags", () => {
  it("trims and lower-cases", () => {
    expect(normalizeTags(["  Physics ", "AI", "climate_change", "covid-19"])).toEqual({
      ok: true,
      tags: ["physics", "ai", "climate_change", "covid-19"],
    });
  });

  it("accepts no tags", () => {
    expect(normalizeTags([])).toEqual({ ok: true, tags: [] });
  });

  it("removes duplicates after normalising, keeping the first position", () => {
    expect(normalizeTags(["b", "A", " a ", "B", "c"])).toEqual({ ok: true, tags: ["b", "a", "c"] });
  });

  it("accepts 50 characters and rejects 51", () => {
    expect(normalizeTags(["x".repeat(50)])).toEqual({ ok: true, tags: ["x".repeat(50)] });
    expect(normalizeTags(["x".repeat(51)])).toEqual({ ok: false, message: TAG_FORMAT_MESSAGE, rule: "format", max: 50 });
  });

  it("measures length after trimming", () => {
    expect(normalizeTags([` ${"x".repeat(50)} `])).toMatchObject({ ok: true });
  });

  it.each([[""], ["   "], ["two words"], ["c++"], ["émigré"], ["a.b"], ["tag/x"]])("rejects %j", (tag) => {
    expect(normalizeTags(["ok", tag])).toEqual({ ok: false, message: TAG_FORMAT_MESSAGE, rule: "format", max: 50 });
  });

  it("the message names the field and the rule", () => {
    expect(TAG_FORMAT_MESSAGE).toBe("tags: each tag must be 1-50 characters of a-z, 0-9, _ or -");
    expect(TAG_COUNT_MESSAGE).toMatch(/^tags: .*10/);
  });

  it("allows 10 tags and rejects 11", () => {
    const ten = Array.from({ length: 10 }, (_, i) => `t${i}`);
    expect(normalizeTags(ten)).toEqual({ ok: true, tags: ten });
    expect(normalizeTags([...ten, "t10"])).toEqual({ ok: false, message: TAG_COUNT_MESSAGE, rule: "too_many", max: 10 });
  });

  it("counts the limit after removing duplicates", () => {
    const ten = Array.from({ length: 10 }, (_, i) => `t${i}`);
    const r = normalizeTags([...ten, "T0", " t9 "]);
    expect(r).toEqual({ ok: true, tags: ten });
  });

  it("rejects a non-string element instead of throwing", () => {
    expect(normalizeTags([42 as unknown as string])).toEqual({ ok: false, message: TAG_FORMAT_MESSAGE, rule: "format", max: 50 });
  });
});

describe("parseTagQuery", () => {
  it("is empty when absent or blank", () => {
    expect(parseTagQuery(undefined)).toEqual([]);
    expect(parseTagQuery("")).toEqual([]);
    expect(parseTagQuery(" , ,")).toEqual([]);
    expect(parseTagQuery([])).toEqual([]);
  });
  it("splits on commas", () => {
    expect(parseTagQuery("physics,ai")).toEqual(["physics", "ai"]);
  });
  it("accepts repeated parameters, and commas within them", () => {
    expect(parseTagQuery(["physics", "ai,bio"])).toEqual(["physics", "ai", "bio"]);
  });
  it("trims, lower-cases and de-duplicates", () => {
    expect(parseTagQuery([" Physics ,AI", "physics", "ai,,"])).toEqual(["physics", "ai"]);
  });
  it("keeps a malformed tag, which then matches nothing", () => {
    expect(parseTagQuery("two words")).toEqual(["two words"]);
  });
});
