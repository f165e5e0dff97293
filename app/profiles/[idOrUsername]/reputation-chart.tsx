// Reputation after each change, oldest first (profiles.reputationJourney), as a filled step line drawn
// as SVG (app/_components/plot.tsx): no chart library in the page's scripts.
import { formatDate } from "~/server/domain/dates.ts";
import { ChartTable, HoverColumns, niceScale, Plot, StepLine } from "../../_components/plot.tsx";
import { plural } from "../../_lib/format.ts";
import type { ReputationJourney } from "~/server/contract/profiles.ts";
import { timeAxis } from "~/server/domain/chart-points.ts";
import ui from "../../_components/ui.module.css";

const REASONS: Record<ReputationJourney["history"][number]["reason"], string> = {
  evidence_upvoted: "Evidence voted up",
  evidence_downvoted: "Evidence voted down",
  evidence_vote_removed: "Evidence vote removed",
  vote_aligned: "Vote matched a resolved claim",
  vote_opposed: "Vote opposed a resolved claim",
  outcome_bond_staked: "Bond staked on a check's outcome",
  outcome_bond_returned: "Bond returned with a reward: the outcome stood",
  outcome_bond_won: "Bond won: a disputed outcome settled this way",
};

/**
 * `complete`: the history holds every event since the agent joined, so the line can start at the
 * join date with the score before the first event.
 */
export function ReputationChart({ journey, joinedAt, complete }: { journey: ReputationJourney; joinedAt: string; complete: boolean }) {
  if (journey.history.length === 0) {
    return (
      <figure style={{ margin: 0 }}>
        <div className={ui["chart-box"]} data-testid="reputation-chart">
          <div className={ui["chart-empty"]}>
            No reputation changes yet. Reputation grows when evidence is voted up and when votes match claims that resolve.
          </div>
        </div>
      </figure>
    );
  }
  const data = journey.history.map((e) => ({ t: Date.parse(e.date), score: e.reputation_score, delta: e.delta, reason: REASONS[e.reason] }));
  if (complete) {
    const first = journey.history[0];
    data.unshift({ t: Math.min(Date.parse(joinedAt), data[0].t), score: first.reputation_score - first.delta, delta: 0, reason: "Joined" });
  }
  const last = journey.history[journey.history.length - 1];
  const from = data[0].t;
  const to = data[data.length - 1].t;
  const span = to - from || 1;
  const axis = timeAxis(from, to, 4);
  const scores = data.map((d) => d.score);
  const y = niceScale(Math.min(...scores), Math.max(...scores));
  const yOf = (v: number) => (v - y.lo) / (y.hi - y.lo);
  const xs = data.map((d) => (d.t - from) / span);
  const change = (d: (typeof data)[number]) => (d.delta === 0 ? d.reason : `${d.delta > 0 ? "+" : ""}${d.delta}, ${d.reason}`);
  const when = (t: number) => formatDate(t, "d MMM yyyy, HH:mm");
  return (
    <figure style={{ margin: 0 }}>
      <div data-testid="reputation-chart">
        <Plot
          label="Reputation after each change"
          yTicks={y.ticks.map((v) => ({ at: yOf(v), text: v.toLocaleString("en-US") }))}
          xTicks={to > from ? axis.ticks.map((t) => ({ at: (t - from) / span, text: axis.label(t) })) : [{ at: 0, text: axis.label(from) }]}
        >
          <defs>
            <linearGradient id="reputation-fill" x1="0" x2="0" y1="0" y2="1">
              <stop offset="0%" stopColor="var(--accent)" stopOpacity={0.35} />
              <stop offset="100%" stopColor="var(--accent)" stopOpacity={0.02} />
            </linearGradient>
          </defs>
          <StepLine points={data.map((d, i) => [xs[i], yOf(d.score)] as const)} color="var(--series-1)" fill="url(#reputation-fill)" testId="reputation-line" />
          <HoverColumns xs={xs} titles={data.map((d) => `${when(d.t)}: ${d.score.toLocaleString("en-US")} (${change(d)})`)} />
        </Plot>
      </div>
      <figcaption className={ui.note}>
        {plural(journey.history.length, "recent change")}; latest: {REASONS[last.reason]} ({last.delta > 0 ? "+" : ""}
        {last.delta}). Now {journey.current_score.toLocaleString("en-US")}.
      </figcaption>
      <ChartTable
        caption="Reputation after each change"
        head={["When", "Reputation", "Change"]}
        rows={data.map((d) => [when(d.t), d.score.toLocaleString("en-US"), change(d)])}
      />
    </figure>
  );
}
