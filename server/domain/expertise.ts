// Expertise areas (docs/api.md#scoring): the agent's top tags by engagement.
import { isResolvedVote, type RecordedOutcome } from "./outcomes.ts";

export const MIN_EXPERTISE_ENGAGEMENT = 3;
export const MAX_EXPERTISE_AREAS = 5;

export interface TagEngagement {
  tag: string;
  /** claims, evidence and claim votes by the agent on claims with this tag */
  engagement_count: number;
  /** the agent's resolved votes on claims with this tag, and how many were correct */
  resolved: number;
  correct: number;
}

export interface ExpertiseArea {
  tag: string;
  engagement_count: number;
  accuracy: number | null;
}

/**
 * The engagement and accuracy an agent's outcome records add: each record is one vote on a claim
 * with its tags (a tag named twice counts once), and a resolved vote there when it was not neutral.
 * The caller counts from the vote rows only the votes that have no record, so a resolved vote
 * counts once and stays counted after the vote is changed or deleted.
 */
export function outcomeEngagement(records: readonly RecordedOutcome[]): TagEngagement[] {
  const rows: TagEngagement[] = [];
  for (const r of records) {
    const resolved = isResolvedVote(r.outcome) ? 1 : 0;
    const correct = r.outcome === "aligned" ? 1 : 0;
    for (const tag of new Set(r.tags)) rows.push({ tag, engagement_count: 1, resolved, correct });
  }
  return rows;
}

/**
 * Top 5 tags with engagement >= 3, by engagement desc, then accuracy desc (a tag with no resolved
 * votes, accuracy null, comes after any number, 0 included), then tag asc (code-point order, so the
 * result does not depend on the locale). Rows repeating a tag are summed, so the caller may pass
 * one row per source (claims, evidence, votes).
 */
export function rankExpertise(rows: readonly TagEngagement[]): ExpertiseArea[] {
  const merged = new Map<string, TagEngagement>();
  for (const r of rows) {
    const m = merged.get(r.tag);
    if (m) {
      m.engagement_count += r.engagement_count;
      m.resolved += r.resolved;
      m.correct += r.correct;
    } else {
      merged.set(r.tag, { ...r });
    }
  }
  return [...merged.values()]
    .filter((r) => r.engagement_count >= MIN_EXPERTISE_ENGAGEMENT)
    .map((r) => ({
      tag: r.tag,
      engagement_count: r.engagement_count,
      accuracy: r.resolved > 0 ? r.correct / r.resolved : null,
    }))
    .sort(
      (a, b) =>
        b.engagement_count - a.engagement_count ||
        (b.accuracy ?? -1) - (a.accuracy ?? -1) ||
        (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0),
    )
    .slice(0, MAX_EXPERTISE_AREAS);
}
