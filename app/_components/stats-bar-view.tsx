"use client";
// The platform's numbers, drawn from [label, value] pairs (docs/architecture.md#pages-from-data), and where
// anyone can check them: the open data (docs/features/open-data.md), and how often the crowd was right
// against the world (docs/features/checks.md).
import Link from "~/app/_components/link.tsx";
import { compactNumber } from "../_lib/format.ts";
import statsStyles from "./stats-bar.module.css";
import ui from "./ui.module.css";

export function StatsBarView({ numbers, note }: { numbers: [label: string, value: number][]; note: string }) {
  return (
    <>
      <dl className={statsStyles["stats-bar"]} aria-label="Platform statistics">
        {numbers.map(([label, value]) => (
          <div className={statsStyles.stat} key={label}>
            <dt>{label}</dt>
            <dd>{compactNumber(value)}</dd>
          </div>
        ))}
      </dl>
      <p className={ui.note} data-testid="consensus-vocabulary" style={{ marginTop: "-0.5rem" }}>
        {note}{" "}
        <Link href="/data" data-testid="verify-numbers">
          Verify these numbers
        </Link>{" "}
        ·{" "}
        <Link href="/calibration" data-testid="crowd-calibration-link">
          How often the crowd is right
        </Link>
      </p>
    </>
  );
}
