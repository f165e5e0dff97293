// The Argdown text of an argument tree (docs/features/arguments.md#lists-and-the-tree): each statement
// defined once, a repeated claim by its title alone, a cut noted in comments.
import { describe, expect, it } from "vitest";
import { argdown, type ArgdownNode } from "~/server/domain/arguments";

const id = (n: number) => `${String(n).repeat(8)}-0000-4000-8000-000000000000`;

describe("argdown", () => {
  const shared: ArgdownNode = { id: id(3), statement: "Shared\nreason", arguments: [{ stance: "opposes", node: { id: id(4), statement: "Its objection", arguments: [] } }] };
  const tree: ArgdownNode = {
    id: id(1),
    statement: "Root  claim",
    arguments: [
      { stance: "supports", node: { id: id(2), statement: "First reason", arguments: [{ stance: "supports", node: shared }] } },
      { stance: "opposes", node: { id: id(3), repeated: true } },
    ],
  };

  it("defines each statement once and names a repeated claim by its title alone", () => {
    expect(argdown(tree)).toBe(
      [
        "[c1111111100004000]: Root claim",
        "  + [c2222222200004000]: First reason",
        "    + [c3333333300004000]: Shared reason",
        "      - [c4444444400004000]: Its objection",
        "  - [c3333333300004000]",
        "",
      ].join("\n"),
    );
  });

  it("notes a cut in comments after the tree, with each claim's full id and the levels left", () => {
    const text = argdown(tree, [{ id: id(4), depth: 2 }]);
    const lines = text.trimEnd().split("\n");
    expect(lines.slice(0, 5)).toEqual(argdown(tree).trimEnd().split("\n"));
    expect(lines.slice(5).every((l) => l === "" || l.startsWith("//"))).toBe(true);
    expect(lines.at(-1)).toBe(`// [c4444444400004000] ${id(4)} depth=2`);
  });
});
