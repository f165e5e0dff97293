// Charts drawn as SVG where the page is rendered, no chart library and no hook: a server component
// can use them, and a client component (a claim's live part) draws them again from new data for the
// cost of a few elements (docs/architecture.md#pages-from-data). The plot is an SVG in a 1000 × 1000
// box stretched to the chart's size (lines keep their width: non-scaling strokes); axis labels are
// HTML laid over it, so text keeps its size on a phone and on a desktop. Each point's figures are in
// a <title> (shown on hover) and in a table under "The numbers" for keyboards and screen readers.
// Dates are written in the reader's time zone: the server's render may differ, so the elements that
// carry them take the browser's text without a hydration warning (as <time> does in bits.tsx).
import type { ReactNode } from "react";
import styles from "./plot.module.css";

export const PLOT_SIZE = 1000;

export interface Tick {
  /** 0 (left or bottom) to 1 (right or top). */
  at: number;
  text: string;
}

/** The plot's frame: grid, axis labels, the drawing (children, in 0…1000 coordinates, y down). */
export function Plot({
  label,
  xTicks,
  yTicks,
  small = false,
  children,
}: {
  /** The chart's name for assistive technology. */
  label: string;
  xTicks: readonly Tick[];
  yTicks: readonly Tick[];
  small?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`${styles.plot} ${small ? styles["plot--small"] : ""}`}>
      <div className={styles.area}>
        <svg
          className={styles.svg}
          viewBox={`0 0 ${PLOT_SIZE} ${PLOT_SIZE}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={label}
        >
          {yTicks.map((t) => (
            <line
              key={`y${t.at}`}
              x1={0}
              x2={PLOT_SIZE}
              y1={py(t.at)}
              y2={py(t.at)}
              stroke="var(--border)"
              strokeDasharray="3 3"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          <line x1={0} x2={PLOT_SIZE} y1={PLOT_SIZE} y2={PLOT_SIZE} stroke="var(--border-strong)" vectorEffect="non-scaling-stroke" />
          <line x1={0} x2={0} y1={0} y2={PLOT_SIZE} stroke="var(--border-strong)" vectorEffect="non-scaling-stroke" />
          {children}
        </svg>
        <div className={styles["y-ticks"]} aria-hidden="true">
          {yTicks.map((t) => (
            <span key={t.at} style={{ top: `${(1 - t.at) * 100}%` }}>
              {t.text}
            </span>
          ))}
        </div>
        <div className={styles["x-ticks"]} aria-hidden="true" data-testid="x-ticks">
          {xTicks.map((t) => (
            <span key={t.at} data-testid="x-tick" suppressHydrationWarning style={{ left: `${t.at * 100}%` }} className={t.at > 0.9 ? styles.end : t.at < 0.1 ? styles.start : undefined}>
              {t.text}
            </span>
          ))}
        </div>
      </div>
    </div>
  );
}

/** 0…1 (bottom to top) to the plot's y. */
export const py = (v: number) => (1 - v) * PLOT_SIZE;
/** 0…1 (left to right) to the plot's x. */
export const px = (v: number) => v * PLOT_SIZE;

/** A step line (each value holds until the next point), optionally filled down to the bottom. */
export function StepLine({
  points,
  color,
  fill,
  width = 2,
  dots = false,
  testId,
}: {
  /** [x, y] in 0…1, in order of x. */
  points: readonly (readonly [number, number])[];
  color: string;
  fill?: string;
  width?: number;
  /** A dot at each point (a round cap on a line of no length keeps its shape when the plot stretches). */
  dots?: boolean;
  testId?: string;
}) {
  if (points.length === 0) return null;
  let d = `M${px(points[0][0])} ${py(points[0][1])}`;
  for (let i = 1; i < points.length; i++) d += `H${px(points[i][0])}V${py(points[i][1])}`;
  // A single point (or all at one time) still shows as a line across the plot.
  const last = points[points.length - 1];
  if (last[0] < 1) d += `H${PLOT_SIZE}`;
  return (
    <g data-testid={testId}>
      {fill ? <path d={`${d}V${PLOT_SIZE}H${px(points[0][0])}Z`} fill={fill} stroke="none" /> : null}
      <path d={d} fill="none" stroke={color} strokeWidth={width} vectorEffect="non-scaling-stroke" strokeLinejoin="round" />
      {dots ? (
        <path
          d={points.map(([x, y]) => `M${px(x)} ${py(y)}h0`).join("")}
          stroke={color}
          strokeWidth={width * 3}
          strokeLinecap="round"
          vectorEffect="non-scaling-stroke"
        />
      ) : null}
    </g>
  );
}

/** Invisible columns over each step, each with its figures as a title (the browser shows it on hover). */
export function HoverColumns({ xs, titles }: { xs: readonly number[]; titles: readonly string[] }) {
  return (
    <g>
      {xs.map((x, i) => {
        const from = px(x);
        const to = i + 1 < xs.length ? px(xs[i + 1]) : PLOT_SIZE;
        const width = Math.max(to - from, 4);
        return (
          <rect key={i} x={Math.min(from, PLOT_SIZE - width)} y={0} width={width} height={PLOT_SIZE} fill="transparent">
            <title suppressHydrationWarning>{titles[i]}</title>
          </rect>
        );
      })}
    </g>
  );
}

/** A dashed horizontal line at y (0…1). */
export function ReferenceLine({ y, color }: { y: number; color: string }) {
  return <line x1={0} x2={PLOT_SIZE} y1={py(y)} y2={py(y)} stroke={color} strokeDasharray="4 4" vectorEffect="non-scaling-stroke" />;
}

/** The series' colours, for the eye (the table and the titles name them for everyone). */
export function Legend({ items }: { items: readonly { key: string; label: string; color: string }[] }) {
  return (
    <ul className={styles.legend} aria-hidden="true">
      {items.map((x) => (
        <li key={x.key}>
          <span className={styles.swatch} style={{ background: x.color }} />
          {x.label}
        </li>
      ))}
    </ul>
  );
}

/** The chart's figures as a table, folded: what a keyboard or a screen reader reads instead of hovering. */
export function ChartTable({ caption, head, rows }: { caption: string; head: readonly string[]; rows: readonly (readonly ReactNode[])[] }) {
  return (
    <details className={styles.numbers}>
      <summary>The numbers</summary>
      <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              {head.map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                {r.map((c, j) =>
                  j === 0 ? (
                    <th key={j} scope="row" suppressHydrationWarning>
                      {c}
                    </th>
                  ) : (
                    <td key={j}>{c}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
      </table>
    </details>
  );
}

/** Up to about `count` round ticks from 0 (or below) to at least `max`: 1, 2 or 5 × 10ⁿ apart. */
export function niceScale(min: number, max: number, count = 4): { lo: number; hi: number; ticks: number[] } {
  const lo0 = Math.min(0, min);
  const hi0 = max > lo0 ? max : lo0 + 1;
  const raw = (hi0 - lo0) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const lo = Math.floor(lo0 / step) * step;
  const hi = Math.ceil(hi0 / step) * step;
  const ticks: number[] = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return { lo, hi, ticks };
}
