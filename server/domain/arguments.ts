// The rules of arguments that need no database (docs/features/arguments.md): how deep a chain of
// arguments may go, and the Argdown text of a tree.

/** The longest chain of arguments (links) from a top claim down, through any new link. */
export const MAX_ARGUMENT_DEPTH = 8;

/** Whether a link from `parent` (with `above` links over it) to `child` (with `below` under it) is too deep. */
export function tooDeep(above: number, below: number): boolean {
  return above + 1 + below > MAX_ARGUMENT_DEPTH;
}

export interface ArgdownNode {
  id: string;
  statement: string;
  arguments: { stance: "supports" | "opposes"; node: ArgdownNode | ArgdownReference }[];
}

/** A claim written in full at another place of the same text: only its title is written here. */
export interface ArgdownReference {
  id: string;
  repeated: true;
}

/** A claim whose arguments the tree's budget left out, and the levels they would have filled. */
export interface ArgdownCut {
  id: string;
  depth: number;
}

/**
 * A claim's Argdown title: its id's first 16 hex digits (titles cannot hold every statement's
 * characters). A repeated claim is written as its title alone, so two claims of one answer must never
 * share a title: 64 bits make that vanishingly unlikely among the 1,000 claims of a tree.
 */
const title = (id: string) => `c${id.replaceAll("-", "").slice(0, 16)}`;
/** One line of Argdown: no line breaks inside a statement. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * `[title]: statement`, then `+` supports and `-` opposes indented two spaces a level. A repeated claim
 * is its `[title]` alone (Argdown reads it as the statement defined elsewhere in the text); claims whose
 * arguments were cut are listed in comments at the end, with the full id to ask for each one's own tree.
 */
export function argdown(root: ArgdownNode, cut: readonly ArgdownCut[] = []): string {
  const lines: string[] = [`[${title(root.id)}]: ${oneLine(root.statement)}`];
  const walk = (node: ArgdownNode, indent: string) => {
    for (const a of node.arguments) {
      const sign = a.stance === "supports" ? "+" : "-";
      if ("repeated" in a.node) {
        lines.push(`${indent}${sign} [${title(a.node.id)}]`);
        continue;
      }
      lines.push(`${indent}${sign} [${title(a.node.id)}]: ${oneLine(a.node.statement)}`);
      walk(a.node, `${indent}  `);
    }
  };
  walk(root, "  ");
  if (cut.length) {
    lines.push("", "// Truncated: the tree's budget was spent. Arguments were left out under these claims; ask each one's own tree:");
    for (const c of cut) lines.push(`// [${title(c.id)}] ${c.id} depth=${c.depth}`);
  }
  return `${lines.join("\n")}\n`;
}

/** An argument's running relevance sums: Σ value and the number of votes. */
export interface RelevanceSums {
  sum: number;
  votes: number;
}

/**
 * The sums after one agent's relevance vote goes from `previous` to `next` (null: none), in O(1). With
 * no vote left the sum is exactly 0, so rounding never outlives the votes.
 */
export function relevanceAfter(sums: RelevanceSums, previous: number | null, next: number | null): RelevanceSums {
  const votes = sums.votes - (previous === null ? 0 : 1) + (next === null ? 0 : 1);
  if (votes === 0) return { sum: 0, votes: 0 };
  return { sum: sums.sum - (previous ?? 0) + (next ?? 0), votes };
}
