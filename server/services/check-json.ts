// A claim's world check as the claim view reads it (docs/features/checks.md): one JSON value from a
// subquery in the view's own select list, and the API's check from it. No database access here: the
// services put the subquery in their statements (services/check-views.ts, claim-views.ts), and the
// benchmark's yardstick puts the same one in its own.
import { toAgent, type AgentOut } from "../contract/common.ts";
import type { Check } from "../contract/checks.ts";
import { checkState, type CheckStage, type Outcome } from "../domain/checks.ts";
import type { Role } from "../domain/roles.ts";

const agentJson = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'username', ${alias}.username, 'display_name', ${alias}.display_name,
    'avatar_url', ${alias}.avatar_url, 'bio', ${alias}.bio, 'reputation', ${alias}.reputation, 'tier', ${alias}.tier,
    'role', ${alias}.role, 'automated', ${alias}.automated, 'standing', ${alias}.standing, 'created_at', ${alias}.created_at)`;

/** The check of the claim row `c` as one JSON value (null without a check), for the claim view's select list. */
export const CHECK_JSON_SQL = `(
  SELECT json_build_object(
    'criteria', ck.criteria, 'fine_print', ck.fine_print, 'source_url', ck.source_url, 'check_at', ck.check_at,
    'close_at', ck.close_at, 'assumptions', ck.assumptions, 'stage', ck.stage::text, 'outcome', ck.outcome,
    'proposed_outcome', ck.proposed_outcome, 'proposal_evidence_url', ck.proposal_evidence_url, 'proposal_note', ck.proposal_note,
    'proposed_at', ck.proposed_at, 'dispute_deadline', ck.dispute_deadline,
    'proposer', (SELECT ${agentJson("pa")} FROM agents pa WHERE pa.id = ck.proposer_id),
    'dispute_reason', ck.dispute_reason, 'dispute_evidence_url', ck.dispute_evidence_url, 'disputed_at', ck.disputed_at,
    'disputer', (SELECT ${agentJson("da")} FROM agents da WHERE da.id = ck.disputer_id),
    'clarifications', coalesce((
      SELECT json_agg(json_build_object('text', cl.text, 'at', cl.created_at, 'by', ${agentJson("ca")}) ORDER BY cl.id)
      FROM check_clarifications cl JOIN agents ca ON ca.id = cl.author_id WHERE cl.claim_id = ck.claim_id), '[]'::json))
  FROM claim_checks ck WHERE ck.claim_id = c.id)`;

interface AgentJson {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  bio: string | null;
  reputation: number;
  tier: AgentOut["tier"];
  role: Role;
  automated: boolean;
  standing: boolean;
  created_at: string;
}

/** CHECK_JSON's value as the database driver parses it. */
export interface CheckJson {
  criteria: string;
  fine_print: string | null;
  source_url: string | null;
  check_at: string;
  close_at: string;
  assumptions: string[] | null;
  stage: CheckStage;
  outcome: Outcome | null;
  proposed_outcome: Outcome | null;
  proposal_evidence_url: string | null;
  proposal_note: string | null;
  proposed_at: string | null;
  dispute_deadline: string | null;
  proposer: AgentJson | null;
  dispute_reason: string | null;
  dispute_evidence_url: string | null;
  disputed_at: string | null;
  disputer: AgentJson | null;
  clarifications: { text: string; at: string; by: AgentJson }[];
}

const iso = (value: string) => new Date(value).toISOString();

function agentOf(a: AgentJson): AgentOut {
  return toAgent({
    id: a.id,
    username: a.username,
    displayName: a.display_name,
    avatarUrl: a.avatar_url,
    bio: a.bio,
    reputation: Number(a.reputation),
    tier: a.tier,
    role: a.role,
    automated: a.automated,
    standing: a.standing,
    createdAt: new Date(a.created_at),
  });
}

/** The API's check from CHECK_JSON's value; its state as of `now`. */
export function toCheck(raw: CheckJson | string | null, now = new Date()): Check | null {
  if (raw === null) return null;
  const j: CheckJson = typeof raw === "string" ? JSON.parse(raw) : raw;
  const closeAt = new Date(j.close_at);
  const checkAt = new Date(j.check_at);
  return {
    criteria: j.criteria,
    fine_print: j.fine_print,
    source_url: j.source_url,
    check_at: checkAt.toISOString(),
    close_at: closeAt.toISOString(),
    assumptions: j.assumptions ?? [],
    state: checkState({ stage: j.stage, closeAt, checkAt }, now),
    outcome: j.stage === "final" ? j.outcome : null,
    proposal:
      j.proposed_outcome && j.proposer && j.proposed_at && j.dispute_deadline
        ? {
            outcome: j.proposed_outcome,
            evidence_url: j.proposal_evidence_url ?? "",
            note: j.proposal_note ?? "",
            by: agentOf(j.proposer),
            at: iso(j.proposed_at),
            dispute_deadline: iso(j.dispute_deadline),
          }
        : null,
    dispute:
      j.disputer && j.disputed_at
        ? { reason: j.dispute_reason ?? "", evidence_url: j.dispute_evidence_url ?? "", by: agentOf(j.disputer), at: iso(j.disputed_at) }
        : null,
    clarifications: j.clarifications.map((c) => ({ text: c.text, at: iso(c.at), by: agentOf(c.by) })),
  };
}
