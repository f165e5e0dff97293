"use client";
// Contributions per day as stacked bars; 7, 30 or 90 days (profiles.timeline). Drawn as SVG
// (app/_components/plot.tsx): the period switch is the only script here, no chart library.
import { useQuery } from "@tanstack/react-query";
import { formatDate } from "~/server/domain/dates.ts";
import { useState } from "react";
import { ChartTable, Legend, niceScale, Plot, PLOT_SIZE, px, py } from "../../_components/plot.tsx";
import type { Timeline } from "~/server/contract/profiles.ts";
import { plural } from "../../_lib/format.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import ui from "../../_components/ui.module.css";

type Period = Timeline["period"];
const PERIODS: { value: Period; label: string }[] = [
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "90d", label: "90 days" },
];
const SERIES = [
  { key: "claims", label: "Claims", color: "var(--series-1)", one: "claim", many: "claims" },
  { key: "evidence", label: "Evidence", color: "var(--series-2)", one: "piece of evidence", many: "pieces of evidence" },
  { key: "votes", label: "Votes", color: "var(--series-3)", one: "vote", many: "votes" },
  { key: "comments", label: "Comments", color: "var(--series-4)", one: "comment", many: "comments" },
] as const;

export function ActivityChart({ agentId, initial, titleId }: { agentId: string; initial: Timeline; titleId: string }) {
  const trpc = useTRPC();
  const [period, setPeriod] = useState<Period>(initial.period);
  const query = useQuery({
    ...trpc.profiles.timeline.queryOptions({ agent_id: agentId, period }),
    initialData: period === initial.period ? initial : undefined,
    placeholderData: (previous) => previous,
  });
  const timeline = query.data ?? initial;
  const totals = SERIES.map((s) => ({ ...s, total: timeline.data.reduce((sum, d) => sum + d[s.key], 0) }));
  const empty = totals.every((t) => t.total === 0);

  return (
    <>
      <div className={ui.card__title}>
        <h2 id={titleId} style={{ fontSize: "1rem", margin: 0 }}>
          Activity
        </h2>
        <div className={ui.segmented} role="group" aria-label="Period">
          {PERIODS.map((p) => (
            <button key={p.value} type="button" aria-pressed={p.value === period} onClick={() => setPeriod(p.value)}>
              {p.label}
            </button>
          ))}
        </div>
      </div>
      <figure style={{ margin: 0 }} aria-busy={query.isFetching}>
        <div className={empty ? ui["chart-box"] : undefined} data-testid="activity-chart">
          {empty ? (
            <div className={ui["chart-empty"]}>No activity in the last {timeline.period.replace("d", " days")}.</div>
          ) : (
            <ActivityBars timeline={timeline} />
          )}
        </div>
        <figcaption className={ui.note}>
          Last {timeline.period.replace("d", " days")}: {totals.map((t) => plural(t.total, t.one, t.many)).join(", ")}.
        </figcaption>
        {empty ? null : (
          <ChartTable
            caption={`Activity per day, last ${timeline.period.replace("d", " days")}`}
            head={["Day", ...SERIES.map((x) => x.label)]}
            rows={timeline.data.map((d) => [formatDate(d.date, "EEE d MMM yyyy"), ...SERIES.map((x) => d[x.key])])}
          />
        )}
      </figure>
    </>
  );
}

/** One column per day, the series stacked in it; each day's figures in its title. */
function ActivityBars({ timeline }: { timeline: Timeline }) {
  const days = timeline.data;
  const y = niceScale(0, Math.max(...days.map((d) => SERIES.reduce((n, x) => n + d[x.key], 0))), 4);
  const slot = PLOT_SIZE / days.length;
  const width = slot * 0.7;
  // About six dates along the axis, whatever the period.
  const every = Math.max(1, Math.ceil(days.length / 6));
  return (
    <>
      <Plot
        label={`Activity per day, last ${timeline.period.replace("d", " days")}`}
        yTicks={y.ticks.map((v) => ({ at: v / y.hi, text: String(v) }))}
        xTicks={days.flatMap((d, i) => (i % every === 0 ? [{ at: (i + 0.5) / days.length, text: formatDate(d.date, "d MMM") }] : []))}
      >
        {days.map((d, i) => {
          let base = 0;
          return (
            <g key={d.date} data-testid="activity-day">
              <title>{`${formatDate(d.date, "EEE d MMM yyyy")}: ${SERIES.map((x) => plural(d[x.key], x.one, x.many)).join(", ")}`}</title>
              <rect x={i * slot} y={0} width={slot} height={PLOT_SIZE} fill="transparent" />
              {SERIES.map((x) => {
                const v = d[x.key];
                if (!v) return null;
                const top = py((base + v) / y.hi);
                const bottom = py(base / y.hi);
                base += v;
                return <rect key={x.key} x={px(i / days.length) + (slot - width) / 2} y={top} width={width} height={bottom - top} fill={x.color} />;
              })}
            </g>
          );
        })}
      </Plot>
      <Legend items={SERIES} />
    </>
  );
}
