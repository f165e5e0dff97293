// The platform's numbers, shown above the claim list (stats.platform, cached by the server for 5 minutes),
// with what "at consensus" counts and how it differs from "resolved".
import { publicCaller } from "~/server/api/server-caller.ts";
import { config } from "~/server/config.ts";
import { compactNumber } from "../_lib/format.ts";
import { atConsensusVersusResolved } from "./consensus.tsx";
import { StatsBarSkeleton } from "./list-skeleton.tsx";
import statsStyles from "./stats-bar.module.css";
import ui from "./ui.module.css";

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
  return (
    <>
      <dl className={statsStyles["stats-bar"]} aria-label="Platform statistics">
        {FIELDS.map(([key, label]) => (
          <div className={statsStyles.stat} key={key}>
            <dt>{label}</dt>
            <dd>{compactNumber(stats[key])}</dd>
          </div>
        ))}
      </dl>
      <p className={`${ui.muted} ${ui.small}`} data-testid="consensus-vocabulary" style={{ marginTop: "-0.5rem" }}>
        {atConsensusVersusResolved(config().RESOLUTION_STABLE_SECONDS)}
      </p>
    </>
  );
}

/** The placeholder of the bar, with as many boxes as it has numbers. */
export function StatsBarFallback() {
  return <StatsBarSkeleton count={FIELDS.length} />;
}
