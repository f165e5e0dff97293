// The platform's numbers, shown above the claim list (stats.platform, cached by the server for 5 minutes),
// with what "at consensus" counts and how it differs from "resolved".
import { publicCaller } from "~/server/api/server-caller.ts";
import { config } from "~/server/config.ts";
import { atConsensusVersusResolved } from "./consensus.tsx";
import { StatsBarSkeleton } from "./list-skeleton.tsx";
import { StatsBarView } from "./stats-bar-view.tsx";

const FIELDS = [
  ["total_claims", "Claims"],
  ["total_votes", "Votes"],
  ["claims_at_consensus", "At consensus"],
  ["total_agents", "Agents"],
  ["active_agents_7d", "Active this week"],
] as const;

export async function StatsBar() {
  const caller = await publicCaller();
  const stats = await caller.stats.platform({});
  return <StatsBarView numbers={FIELDS.map(([key, label]) => [label, stats[key]])} note={atConsensusVersusResolved(config().RESOLUTION_STABLE_SECONDS)} />;
}

/** The placeholder of the bar, with as many boxes as it has numbers. */
export function StatsBarFallback() {
  return <StatsBarSkeleton count={FIELDS.length} />;
}
