// The visibility rule is decided in one place (server/services/visibility.ts) and must be used by
// every read of claims, evidence or comments in the services: a new query that forgets it would show
// hidden content. This test reads the sources and fails on a statement over those tables that names
// no predicate from the visibility module. Statements that must see hidden rows on purpose (the
// moderation service, writes by id, the invariants' own recounts) are listed with their reason.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SERVICES = path.resolve("server/services");
/** Whole files that work on hidden content on purpose. */
const EXEMPT_FILES: Record<string, string> = {
  "moderation.ts": "hides, restores and shows hidden content to moderators",
  "invariants.ts": "recounts every row; takes the visibility rule for the counters from visibility.ts",
  "visibility.ts": "the rule itself",
  "account-export.ts": "the export of an account covers everything it holds, hidden content included",
  "account-deletion.ts": "the deletion of an account covers everything it holds, hidden content included",
  "open-data-snapshot.ts":
    "reads every input the bridging model fits (votes on hidden claims by claim id only); what it publishes leaves hidden content out, which the snapshot tests' privacy scan checks (tests/api/open-data.test.ts)",
};
/** Statements that read or write one row by id after the visible check, or whose rows are already visible. */
const EXEMPT_SNIPPETS = [
  "FROM claims c WHERE c.id = ${claimId}::uuid AND ${visible}", // lockClaim: visibleClaim, unless account deletion removes a vote on a hidden claim
  "UPDATE claims SET comment_count", // after requireClaim (visible)
  "UPDATE claims SET weighted_sum", // the row locked by lockClaim (visible)
  "SELECT people_weighted_sum, people_weight_total, people_vote_count FROM claims WHERE id", // re-sorting an account's votes keeps hidden claims' people sums exact too (kept for their restore)
  "FROM claims c,\n", // resolution of the locked (visible) claim
  "UPDATE evidence SET upvotes", // the row locked visible in setEvidenceVote
  "FROM comments c JOIN agents a ON a.id = c.author_id WHERE ${where}", // commentRows: every caller passes a visible predicate or checks `visible`
  "FROM unnest(${level.map", // withReplies: the lateral subquery filters
  "(SELECT count(*) FROM claims) + (SELECT count(*) FROM agents)", // sizes the bridging worker's heap: the fit reads hidden claims' votes too
  "WHERE c.id = b.claim_id AND c.counted_vote_count = 0", // a fit resets the bridging of every claim without counted votes, hidden ones included (kept for their restore)
  "FROM claims c WHERE c.id = ANY(${claimIds}::uuid[]) ORDER BY c.id FOR NO KEY UPDATE", // re-sorting an account's votes when its standing changes keeps hidden claims' counts exact too (kept for their restore)
  "SELECT c.id FROM claims c WHERE c.id IN (SELECT claim_id FROM pick)", // rescorePending locks the claims it re-scores: hidden ones keep a score for their restore
  "NOT EXISTS (SELECT 1 FROM claims c WHERE c.id = p.claim_id)", // rescorePending drops the marks of deleted claims
  "SELECT k.id::text AS id FROM claims k", // a bridging write locks the claims it re-scores, hidden ones too (kept for their restore)
  "FROM claims c WHERE c.id = ANY(${[...bridgingOf.keys()]}::uuid[])", // restateConsensus: the claims a bridging write just changed, hidden ones too
  "`arguments g JOIN claims c ON c.id = g.child_claim_id LEFT JOIN", // ARGUMENTS_WITH_CHILD: every query using it names visibleClaim("c")
  "WHERE c.statement_key = claim_statement_key(", // a duplicate statement is refused whoever can see the claim that has it
  "FROM claims c WHERE c.id = ${claimId}::uuid FOR UPDATE", // editClaim locks the claim by id for its author, who may edit it while hidden (as they see it)
  "FROM evidence e WHERE e.id = ${evidenceId}::uuid FOR NO KEY UPDATE", // editEvidence locks the evidence by id for its author, who may edit it while hidden
  "SELECT e.edited_at FROM evidence e WHERE e.id = ${current.id}", // evidenceHistory: after getEvidence answered (404 when hidden, but to its author and moderators)
  "(SELECT p.tags FROM claims p WHERE p.id = ${input.claim_id}::uuid)", // insertChild: the parent's tags, after addArgument found the parent visible
  "SELECT id::text FROM claims WHERE id = ${input.claimId}::uuid", // settle: a moderator settles a disputed outcome on a hidden claim too (moderators see them)
  "SELECT ${CHECK_JSON} AS check_json FROM claims c WHERE c.id = ${input.claimId}::uuid", // settle's answer: the check the moderator just settled
];

const TABLE_REF = /\b(FROM|JOIN)\s+(claims|evidence|comments)\b|\bdb\(\)\.(claim|evidence|comment)\.(findMany|findFirst|findUnique|count)\b|\btx\.(claim|evidence|comment)\.(findMany|findFirst|findUnique|count)\b/g;
const PREDICATE = /visibleClaim|visibleEvidence|visibleComment|VISIBLE_CLAIM_WHERE|VISIBLE_ON_CLAIM_WHERE|includeHidden|hidden_at/;

function statementAround(source: string, index: number): string {
  // The statement: from the template literal or call that holds the reference to its end.
  const start = Math.max(source.lastIndexOf("`", index), source.lastIndexOf("(", index) - 200, 0);
  const end = source.indexOf("`", index) === -1 ? index + 400 : Math.min(source.indexOf("`", index) + 200, index + 600);
  return source.slice(Math.max(0, Math.min(start, index - 400)), end);
}

describe("the visibility rule", () => {
  it("is named by every service query over claims, evidence and comments", () => {
    const offenders: string[] = [];
    for (const file of readdirSync(SERVICES).filter((f) => f.endsWith(".ts"))) {
      if (EXEMPT_FILES[file]) continue;
      const source = readFileSync(path.join(SERVICES, file), "utf8");
      for (const match of source.matchAll(TABLE_REF)) {
        const around = statementAround(source, match.index!);
        if (EXEMPT_SNIPPETS.some((s) => around.includes(s))) continue;
        if (PREDICATE.test(around)) continue;
        const line = source.slice(0, match.index).split("\n").length;
        offenders.push(`${file}:${line}: ${match[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
