// The gradient as a bar (lists) and as a gauge (the claim page). Plain components: usable from server
// and client components alike.
import { gradientLabel, gradientTone, percent } from "../_lib/format.ts";
import gradientStyles from "./gradient.module.css";
import ui from "./ui.module.css";

export function GradientBar({ gradient, label }: { gradient: number; label?: string }) {
  return (
    <div
      className={gradientStyles["gradient-bar"]}
      role="img"
      aria-label={label ?? `Gradient ${percent(gradient)} true`}
    >
      <span className={gradientStyles["gradient-bar__marker"]} style={{ left: `${gradient * 100}%` }} />
    </div>
  );
}

export function GradientValue({ gradient, className = "" }: { gradient: number; className?: string }) {
  return <span className={`${gradientStyles["gradient-value"]} ${gradientStyles[`gradient-value--${gradientTone(gradient)}`]} ${className}`}>{percent(gradient)}</span>;
}

/** A half-circle gauge from false (left) to true (right) with a needle at the gradient. */
export function GradientGauge({ gradient, voteCount }: { gradient: number; voteCount: number }) {
  const angle = Math.PI * (1 - gradient); // 0 → left (π), 1 → right (0)
  const cx = 100;
  const cy = 100;
  const r = 80;
  const needleX = cx + (r - 12) * Math.cos(angle);
  const needleY = cy - (r - 12) * Math.sin(angle);
  const tone = gradientTone(gradient);
  return (
    <figure className={gradientStyles.gauge} style={{ margin: 0 }}>
      <svg viewBox="0 0 200 115" role="img" aria-label={`Gradient gauge: ${percent(gradient)} true`}>
        <defs>
          <linearGradient id="gauge-scale" x1="0" x2="1" y1="0" y2="0">
            <stop offset="0%" stopColor="var(--false)" />
            <stop offset="50%" stopColor="var(--neutral)" />
            <stop offset="100%" stopColor="var(--true)" />
          </linearGradient>
        </defs>
        <path d={`M ${cx - r} ${cy} A ${r} ${r} 0 0 1 ${cx + r} ${cy}`} fill="none" stroke="url(#gauge-scale)" strokeWidth="16" strokeLinecap="round" />
        <line x1={cx} y1={cy} x2={needleX} y2={needleY} stroke="var(--text)" strokeWidth="4" strokeLinecap="round" />
        <circle cx={cx} cy={cy} r="7" fill="var(--text)" />
        <text x={cx - r} y={cy + 14} textAnchor="middle" fontSize="10" fill="var(--text-muted)">0</text>
        <text x={cx + r} y={cy + 14} textAnchor="middle" fontSize="10" fill="var(--text-muted)">1</text>
      </svg>
      <figcaption style={{ textAlign: "center" }}>
        <div className={`${gradientStyles.gauge__value} ${gradientStyles[`gradient-value--${tone}`]}`} data-testid="gradient-value">
          {percent(gradient)}
        </div>
        <div className={gradientStyles.gauge__label}>{gradientLabel(gradient, voteCount)}</div>
        <div className={`${ui.muted} ${ui.small}`}>
          {voteCount === 1 ? "1 vote" : `${voteCount} votes`} · 0 = false, 1 = true
        </div>
      </figcaption>
    </figure>
  );
}
