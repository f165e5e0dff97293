// A reliability diagram drawn as SVG where the page is rendered (no script needed to see it): for each
// tenth of the scale, the mean estimate across against how often those claims came out true up, each
// dot sized by its count, the diagonal where perfect calibration would sit. The crowd's on /calibration
// and a person's world track record on their profile (docs/features/checks.md) share it.
import type { ReactNode } from "react";

export interface ReliabilityBin {
  bin: number;
  predicted: number | null;
  observed: number | null;
  n: number;
}

const SIZE = 320;
const PAD = 40;
const PLOT = SIZE - 2 * PAD;
const x = (p: number) => PAD + p * PLOT;
const y = (p: number) => SIZE - PAD - p * PLOT;
const pct = (p: number) => `${Math.round(p * 100)} %`;

export function ReliabilityDiagram({
  bins: all,
  idPrefix,
  title,
  description,
  xLabel,
  unit,
  testId = "reliability-diagram",
}: {
  bins: readonly ReliabilityBin[];
  /** Makes the title's and description's ids unique on the page. */
  idPrefix: string;
  title: string;
  description: ReactNode;
  xLabel: string;
  /** What one count is, in the singular ("claim", "vote"). */
  unit: string;
  testId?: string;
}) {
  const bins = all.filter((b) => b.n > 0 && b.predicted !== null && b.observed !== null);
  const most = Math.max(1, ...bins.map((b) => b.n));
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <svg
      viewBox={`0 0 ${SIZE} ${SIZE}`}
      width={SIZE}
      height={SIZE}
      role="img"
      aria-labelledby={`${idPrefix}-title ${idPrefix}-desc`}
      data-testid={testId}
      style={{ maxWidth: "100%", height: "auto" }}
    >
      <title id={`${idPrefix}-title`}>{title}</title>
      <desc id={`${idPrefix}-desc`}>{description}</desc>
      <rect x={PAD} y={PAD} width={PLOT} height={PLOT} fill="var(--surface)" stroke="var(--border-strong)" />
      {ticks.map((t) => (
        <g key={t}>
          <line x1={x(t)} y1={y(0)} x2={x(t)} y2={y(1)} stroke="var(--border)" />
          <line x1={x(0)} y1={y(t)} x2={x(1)} y2={y(t)} stroke="var(--border)" />
          <text x={x(t)} y={SIZE - PAD + 16} textAnchor="middle" fontSize="11" fill="var(--text-muted)">
            {pct(t)}
          </text>
          <text x={PAD - 6} y={y(t) + 4} textAnchor="end" fontSize="11" fill="var(--text-muted)">
            {pct(t)}
          </text>
        </g>
      ))}
      <line x1={x(0)} y1={y(0)} x2={x(1)} y2={y(1)} stroke="var(--text-muted)" strokeDasharray="4 4" />
      <text x={SIZE / 2} y={SIZE - 6} textAnchor="middle" fontSize="12" fill="var(--text)">
        {xLabel}
      </text>
      <text x={12} y={SIZE / 2} textAnchor="middle" fontSize="12" fill="var(--text)" transform={`rotate(-90 12 ${SIZE / 2})`}>
        Came out true
      </text>
      {bins.map((b) => (
        <circle
          key={b.bin}
          data-testid="reliability-point"
          cx={x(b.predicted!)}
          cy={y(b.observed!)}
          r={4 + 8 * Math.sqrt(b.n / most)}
          fill="var(--accent)"
          fillOpacity="0.75"
          stroke="var(--accent-hover)"
        >
          <title>{`${pct(b.predicted!)} said, ${pct(b.observed!)} true, ${b.n} ${unit}${b.n === 1 ? "" : "s"}`}</title>
        </circle>
      ))}
    </svg>
  );
}
