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
  arguments: { stance: "supports" | "opposes"; node: ArgdownNode }[];
}

/** A claim's Argdown title: its id's first 8 characters (titles cannot hold every statement's characters). */
const title = (id: string) => `c${id.slice(0, 8)}`;
/** One line of Argdown: no line breaks inside a statement. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** `[title]: statement`, then `+` supports and `-` opposes indented two spaces a level. */
export function argdown(root: ArgdownNode): string {
  const lines: string[] = [`[${title(root.id)}]: ${oneLine(root.statement)}`];
  const walk = (node: ArgdownNode, indent: string) => {
    for (const a of node.arguments) {
      lines.push(`${indent}${a.stance === "supports" ? "+" : "-"} [${title(a.node.id)}]: ${oneLine(a.node.statement)}`);
      walk(a.node, `${indent}  `);
    }
  };
  walk(root, "  ");
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
