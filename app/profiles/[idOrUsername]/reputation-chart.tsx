"use client";
// Reputation after each change, oldest first (profiles.reputationJourney).
import { format, parseISO } from "date-fns";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { timeXAxisProps } from "../../_lib/time-x-axis.ts";
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
  const data = journey.history.map((e) => ({ t: parseISO(e.date).getTime(), score: e.reputation_score, delta: e.delta, reason: REASONS[e.reason] }));
  if (complete) {
    const first = journey.history[0];
    data.unshift({ t: Math.min(parseISO(joinedAt).getTime(), data[0].t), score: first.reputation_score - first.delta, delta: 0, reason: "Joined" });
  }
  const last = journey.history[journey.history.length - 1];
  const axis = timeAxis(data[0].t, data[data.length - 1].t, 4);
  return (
    <figure style={{ margin: 0 }}>
      <div className={ui["chart-box"]} data-testid="reputation-chart">
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 640, height: 240 }}>
          <AreaChart data={data} margin={{ top: 8, right: 48, bottom: 0, left: 8 }} title="Reputation after each change (arrow keys move through the changes)">
            <defs>
              <linearGradient id="reputation-fill" x1="0" x2="0" y1="0" y2="1">
                <stop offset="0%" stopColor="var(--accent)" stopOpacity={0.35} />
                <stop offset="100%" stopColor="var(--accent)" stopOpacity={0.02} />
              </linearGradient>
            </defs>
            <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
            <XAxis {...timeXAxisProps(axis)} />
            <YAxis tick={{ fill: "var(--text-muted)", fontSize: 12 }} stroke="var(--border-strong)" />
            <Tooltip
              labelFormatter={(t) => format(Number(t), "d MMM yyyy, HH:mm")}
              formatter={(value, _name, item) => {
                const p = item.payload as { delta: number; reason: string };
                const change = p.delta === 0 ? p.reason : `${p.delta > 0 ? "+" : ""}${p.delta}, ${p.reason}`;
                return [`${Number(value).toLocaleString("en-US")} (${change})`, "Reputation"];
              }}
              contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", borderRadius: 6, color: "var(--text)" }}
            />
            <Area type="stepAfter" dataKey="score" stroke="var(--series-1)" strokeWidth={2} fill="url(#reputation-fill)" isAnimationActive={false} dot={data.length < 30} />
          </AreaChart>
        </ResponsiveContainer>
      </div>
      <figcaption className={ui.note}>
        {plural(journey.history.length, "recent change")}; latest: {REASONS[last.reason]} ({last.delta > 0 ? "+" : ""}
        {last.delta}). Now {journey.current_score.toLocaleString("en-US")}.
      </figcaption>
    </figure>
  );
}
