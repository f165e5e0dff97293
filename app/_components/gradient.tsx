// The gradient as a bar (lists) and as a gauge (the claim page). The gradient is a number to show only
// once there are enough voters to call (docs/features/consensus-ui.md): before that, no needle, no
// marker and no percentage stand for a verdict. Its colour is the claim's consensus status, never the
// number alone (a divided claim at 85% is not green). Plain components: usable from server and client
// components alike.
import type { Consensus } from "~/server/contract/claims.ts";
import { percent, plural } from "../_lib/format.ts";
import { consensusHeadline, consensusTone, hasVerdict, type ConsensusCall } from "./consensus.tsx";
import gradientStyles from "./gradient.module.css";
import ui from "./ui.module.css";

export function GradientBar({ gradient, consensus }: { gradient: number; consensus: ConsensusCall }) {
  const shown = hasVerdict(consensus);
  return (
    <div
      className={`${gradientStyles["gradient-bar"]} ${shown ? "" : gradientStyles["gradient-bar--empty"]}`}
      role="img"
      aria-label={shown ? `${consensusHeadline(consensus)}; weighted average ${percent(gradient)} true` : consensusHeadline(consensus)}
    >
      {shown ? <span className={gradientStyles["gradient-bar__marker"]} style={{ left: `${Math.round(gradient * 1000) / 10}%` }} /> : null}
    </div>
  );
}

/** The weighted average as a percentage, coloured by the status; nothing before there is a verdict. */
export function GradientValue({ gradient, consensus, className = "" }: { gradient: number; consensus: ConsensusCall; className?: string }) {
  if (!hasVerdict(consensus)) return null;
  return (
    <span className={className ? `${gradientStyles[`gradient-value--${consensusTone(consensus)}`]} ${className}` : gradientStyles[`gradient-value--${consensusTone(consensus)}`]}>
      {percent(gradient)}
    </span>
  );
}

/**
 * A half-circle gauge from false (left) to true (right) with a needle at the gradient, once there is a
 * verdict; before that, the empty scale and how many votes there are.
 */
export function GradientGauge({ gradient, consensus }: { gradient: number; consensus: Consensus }) {
  const shown = hasVerdict(consensus);
  const angle = Math.PI * (1 - gradient); // 0 → left (π), 1 → right (0)
  const cx = 100;
  const cy = 100;
  const r = 80;
  // A tenth of a unit is finer than any screen shows the needle; more digits only weigh on the HTML.
  const needleX = Math.round((cx + (r - 12) * Math.cos(angle)) * 10) / 10;
  const needleY = Math.round((cy - (r - 12) * Math.sin(angle)) * 10) / 10;
  const tone = consensusTone(consensus);
  return (
    <figure className={gradientStyles.gauge} style={{ margin: 0 }}>
      <svg
        viewBox="0 0 200 115"
        role="img"
        aria-label={shown ? `Gauge: weighted average ${percent(gradient)} true; ${consensusHeadline(consensus)}` : `Gauge without a reading: ${consensusHeadline(consensus)}`}
      >
        <defs>
          <linearGradient id="gauge-scale" x1="0" x2="1" y1="0" y2="0">
            <stop offset="0%" stopColor="var(--false)" />
            <stop offset="50%" stopColor="var(--neutral)" />
            <stop offset="100%" stopColor="var(--true)" />
          </linearGradient>
        </defs>
        <path
          d={`M ${cx - r} ${cy} A ${r} ${r} 0 0 1 ${cx + r} ${cy}`}
          fill="none"
          stroke={shown ? "url(#gauge-scale)" : "var(--border)"}
          strokeWidth="16"
          strokeLinecap="round"
        />
        {shown ? (
          <>
            <line x1={cx} y1={cy} x2={needleX} y2={needleY} stroke="var(--text)" strokeWidth="4" strokeLinecap="round" />
            <circle cx={cx} cy={cy} r="7" fill="var(--text)" />
          </>
        ) : null}
        <g textAnchor="middle" fontSize="10" fill="var(--text-muted)">
          <text x={cx - r} y={cy + 14}>0</text>
          <text x={cx + r} y={cy + 14}>1</text>
        </g>
      </svg>
      <figcaption style={{ textAlign: "center" }}>
        {shown ? (
          <div className={`${gradientStyles.gauge__value} ${gradientStyles[`gradient-value--${tone}`]}`} data-testid="gradient-value">
            {percent(gradient)}
          </div>
        ) : null}
        <div className={ui.note} data-testid="gauge-votes">
          {shown ? `weighted average of ${plural(consensus.voters, "vote")}` : plural(consensus.voters, "vote")} · 0 = false, 1 = true
        </div>
      </figcaption>
    </figure>
  );
}
