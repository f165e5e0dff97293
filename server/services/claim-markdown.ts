// The Markdown twin of a claim page (GET /claims/{id}.md) and /llms.txt: the site as an agent reads it
// (docs/features/mcp.md). Built from what the anonymous API answers, so it shows nothing the public
// page would not: a hidden claim is not found here either.
import type { ArgumentList, ArgumentUses } from "../contract/arguments.ts";
import type { ClaimDetail } from "../contract/claims.ts";
import { balanceWords, relevanceWords, weightWords } from "../domain/argument-words.ts";
import type { Evidence } from "../contract/evidence.ts";
import { POSITIONS } from "../contract/evidence.ts";

/** One line of text, safe inside Markdown emphasis and link labels. */
function inline(text: string): string {
  return text.replace(/\s+/g, " ").trim().replace(/([\\`*_[\]<>|#])/g, "\\$1");
}

/** A fenced block that no backtick run inside the text can close early. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

type WithConsensus = { consensus?: Pick<ClaimDetail["consensus"], "status" | "voters" | "decided_by" | "not_counted"> | null };
type WithPeople = { gradient_people?: number | null };

function evidenceItem(e: Evidence & { title?: string | null; excerpt?: string | null }, origin: string): string {
  const score = `score ${e.vote_score} (+${e.upvotes}/−${e.downvotes})`;
  const by = `by [${inline(e.author.display_name)}](${origin}/profiles/${e.author.username})`;
  const title = e.title ? `**${inline(e.title)}** — ` : "";
  if (e.content_type === "link") {
    const excerpt = e.excerpt ? `\n  > ${inline(e.excerpt)}` : "";
    return `- ${title}<${e.content.replace(/[<>\s]/g, encodeURIComponent)}> — ${score}, ${by}${excerpt}`;
  }
  const body = e.content_type === "code" || e.content_type === "data" ? `\n\n${fenced(e.content)}\n` : ` ${inline(e.content)}`;
  return `- ${title}${score}, ${by}:${body}`;
}

export function claimMarkdown({
  claim,
  evidence,
  totalEvidence,
  args,
  uses,
  origin,
}: {
  claim: ClaimDetail & WithConsensus & WithPeople;
  /** The evidence shown, of `totalEvidence` in all. */
  evidence: Evidence[];
  totalEvidence: number;
  /** The claim's arguments (a page of them, by impact) and where it is an argument itself. */
  args?: Pick<ArgumentList, "arguments" | "total" | "balance">;
  uses?: ArgumentUses;
  /** The public origin links start with. */
  origin: string;
}): string {
  const url = `${origin}/claims/${claim.id}`;
  const lines: string[] = [`# ${inline(claim.statement)}`, ""];
  lines.push(`- Claim: ${url} (JSON: ${origin}/api/v1/claims/${claim.id})`);
  if (claim.consensus) {
    const decided = claim.consensus.decided_by ? `, decided by ${claim.consensus.decided_by}` : "";
    lines.push(`- Consensus: ${claim.consensus.status.replace(/_/g, " ")}${decided}`);
    // Only votes of accounts with standing decide it (docs/features/consensus.md#standing).
    const { voters, not_counted: notCounted } = claim.consensus;
    lines.push(`- Counted voters (accounts with standing): ${voters}${notCounted.people + notCounted.automated > 0 ? `; not counted: ${notCounted.people} by people without standing yet, ${notCounted.automated} by automated accounts` : ""}`);
  }
  if (claim.agents.voters > 0) {
    lines.push(`- Agents (automated accounts, shown beside, never deciding): ${claim.agents.gradient!.toFixed(3)} from ${claim.agents.voters} agent${claim.agents.voters === 1 ? "" : "s"}`);
  }
  lines.push(`- Gradient (reputation-weighted mean of the votes, 0 = false, 1 = true): ${claim.vote_count > 0 ? claim.gradient.toFixed(3) : "no votes yet"}`);
  if (claim.gradient_people !== undefined && claim.vote_count > 0) {
    lines.push(`- Gradient of people only (automated accounts left out): ${claim.gradient_people === null ? "no votes by people" : claim.gradient_people.toFixed(3)}`);
  }
  lines.push(`- Voters: ${claim.vote_count}`);
  const b = claim.bridging;
  lines.push(`- Bridging (agreement across viewpoints): ${b.status.replace(/_/g, " ")}${b.score !== null ? `, score ${b.score.toFixed(3)}` : ""}`);
  lines.push(`- Complexity: ${claim.complexity_tier}`);
  if (claim.tags.length) lines.push(`- Tags: ${claim.tags.map((t) => `[${t}](${origin}/topics/${encodeURIComponent(t)})`).join(", ")}`);
  lines.push(`- Submitted by [${inline(claim.author.display_name)}](${origin}/profiles/${claim.author.username}) on ${claim.created_at}`);
  if (claim.parent_claims.length) {
    lines.push("", "## Builds on", "");
    for (const p of claim.parent_claims) lines.push(`- [${inline(p.statement)}](${origin}/claims/${p.id}.md)`);
  }
  if (uses && uses.total > 0) {
    lines.push("", "## Argues", "");
    for (const u of uses.uses) lines.push(`- ${u.stance === "supports" ? "For" : "Against"}: [${inline(u.claim.statement)}](${origin}/claims/${u.claim.id}.md)`);
    if (uses.total > uses.uses.length) lines.push(`- … and ${uses.total - uses.uses.length} more: ${origin}/api/v1/claims/${claim.id}/argues`);
  }
  if (args) lines.push(...argumentLines(args, claim.id, origin));
  lines.push("", `## Evidence (${totalEvidence})`);
  for (const position of POSITIONS) {
    const items = evidence.filter((e) => e.position === position);
    if (!items.length) continue;
    lines.push("", `### ${position[0].toUpperCase()}${position.slice(1)}`, "");
    for (const e of items) lines.push(evidenceItem(e, origin));
  }
  if (!evidence.length) lines.push("", "No evidence yet.");
  if (totalEvidence > evidence.length) lines.push("", `The ${evidence.length} highest-scored pieces are shown; all of them: ${origin}/api/v1/claims/${claim.id}/evidence`);
  lines.push("");
  return lines.join("\n");
}

/** The arguments section: the balance in words, then the reasons for and against, each with its weight. */
function argumentLines(args: Pick<ArgumentList, "arguments" | "total" | "balance">, claimId: string, origin: string): string[] {
  const lines = ["", `## Arguments (${args.total})`, ""];
  if (args.total === 0) return [...lines, "No arguments yet."];
  const supports = args.arguments.filter((a) => a.stance === "supports");
  const opposes = args.arguments.filter((a) => a.stance === "opposes");
  const weighed = args.arguments.filter((a) => a.impact !== null).length;
  lines.push(balanceWords({ balance: args.balance, supports: supports.length, opposes: opposes.length, weighed }));
  for (const [title, group] of [["For", supports], ["Against", opposes]] as const) {
    if (!group.length) continue;
    lines.push("", `### ${title}`, "");
    for (const a of group) {
      lines.push(`- [${inline(a.claim.statement)}](${origin}/claims/${a.claim.id}.md) — ${a.claim.consensus.status.replace(/_/g, " ")}; ${relevanceWords(a.relevance).toLowerCase()}; ${weightWords(a.impact).toLowerCase()}`);
    }
  }
  if (args.total > args.arguments.length) lines.push("", `The ${args.arguments.length} weightiest are shown; all of them: ${origin}/api/v1/claims/${claimId}/arguments`);
  return lines;
}

/** /llms.txt (llmstxt.org): an H1, a one-paragraph summary, then sections of links. */
export function llmsTxt(origin: string, recent: { id: string; statement: string }[]): string {
  const lines = [
    "# Claims service",
    "",
    "> A public place to assess claims: people and software agents submit claims, attach evidence for and against, and vote how likely each claim is true (0.0–1.0). Every claim carries a reputation-weighted gradient, a consensus status that is stated only when the votes support it, and a bridging score that asks whether people who usually disagree agree.",
    "",
    "Agents can use the REST API with an access token or an API key, or connect over the Model Context Protocol. Every claim page has a Markdown twin at `/claims/{id}.md`.",
    "",
    "## API",
    "",
    `- [OpenAPI document](${origin}/api/v1/openapi.json): every REST operation under /api/v1, with request and response schemas`,
    `- [API reference](${origin}/docs/api): the same document, browsable`,
    "",
    "## MCP",
    "",
    `- [MCP endpoint](${origin}/mcp): Streamable HTTP, stateless; tools search_claims, get_claim, cast_vote, add_evidence and more; Authorization: Bearer <access token | API key | OAuth token>`,
    `- [Protected resource metadata](${origin}/.well-known/oauth-protected-resource): where MCP clients find the authorization server (OAuth 2.1, dynamic client registration, PKCE)`,
    "",
    "## Docs",
    "",
    `- [Claim pages as Markdown](${origin}/claims/{id}.md): statement, consensus, gradient, voters, bridging, the arguments for and against and the evidence by position`,
    `- [Trending claims](${origin}/api/v1/discover/trending): the most active claims of the last 24 hours (JSON)`,
  ];
  if (recent.length) {
    lines.push("", "## Optional", "");
    for (const c of recent) lines.push(`- [${inline(c.statement).slice(0, 120)}](${origin}/claims/${c.id}.md)`);
  }
  lines.push("");
  return lines.join("\n");
}
