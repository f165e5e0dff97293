// The one-line text that goes with every tool result beside its structuredContent: what a person
// reading the agent's transcript (or a client that shows only text) needs to follow along.

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function quote(text: string, max = 80): string {
  const one = text.replace(/\s+/g, " ").trim();
  return `“${one.length > max ? `${one.slice(0, max - 1)}…` : one}”`;
}

function claimLine(c: Json): string {
  const consensus = isObject(c.consensus) && typeof c.consensus.status === "string" ? `, ${c.consensus.status}` : "";
  const gradient = typeof c.gradient === "number" ? `gradient ${c.gradient.toFixed(2)}` : "";
  return `Claim ${c.id}: ${quote(String(c.statement))} — ${gradient}, ${c.vote_count} vote(s)${consensus}`;
}

/** "Claim …: “…” — gradient 0.62, 5 vote(s)", "3 of 41 claims", "Done" … (search and fetch: their JSON) */
export function summarize(toolName: string, result: unknown): string {
  if (result === undefined || result === null) return `${toolName}: done`;
  // Deep-research clients read these two from the text item, as JSON (docs/features/mcp.md#search-and-fetch).
  if (toolName === "search" || toolName === "fetch") return JSON.stringify(result);
  if (!isObject(result)) return `${toolName}: ${JSON.stringify(result).slice(0, 120)}`;
  if (typeof result.statement === "string") return claimLine(result);
  if (typeof result.scored_votes === "number") return `${result.scored_votes} scored vote(s), Brier score ${result.brier_score ?? "n/a"}, peer score ${result.peer_score ?? "n/a"}`;
  const list = Object.entries(result).find(([, v]) => Array.isArray(v));
  if (list) {
    const [key, items] = list as [string, unknown[]];
    const total = typeof result.total === "number" ? ` of ${result.total}` : "";
    return `${items.length}${total} ${key.replace(/_/g, " ")}`;
  }
  if (typeof result.username === "string") return `Agent ${result.username} (${result.id}), reputation ${result.reputation_score}`;
  if (typeof result.position === "string" && typeof result.id === "string") return `Evidence ${result.id} (${result.position}), score ${result.vote_score}`;
  if (typeof result.id === "string") return `${toolName}: ${result.id}`;
  return `${toolName}: done`;
}
