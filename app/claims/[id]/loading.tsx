"use client";
// A client component: every page's React payload names its loading state instead of carrying its tree
// (docs/architecture.md#pages-from-data).
import { SkeletonLines } from "../../_components/bits.tsx";
import claimStyles from "./claim.module.css";
import ui from "../../_components/ui.module.css";

export default function Loading() {
  return (
    <div aria-busy="true" aria-live="polite">
      <span className="visually-hidden">Loading the claim…</span>
      <div className={claimStyles["claim-hero"]}>
        <div className={ui.skeleton} style={{ height: "2.2rem", width: "85%", marginBottom: "0.6rem" }} />
        <div className={ui.skeleton} style={{ height: "2.2rem", width: "55%", marginBottom: "1rem" }} />
        <SkeletonLines lines={1} widths={["40%"]} />
      </div>
      <div className={ui["layout-sidebar"]}>
        <div className={ui.stack}>
          <div className={ui.card} style={{ minHeight: 480 }}>
            <SkeletonLines lines={6} />
          </div>
          <div className={ui.card} style={{ minHeight: 240 }}>
            <SkeletonLines lines={4} />
          </div>
        </div>
        <div className={ui.stack}>
          <div className={ui.card} style={{ minHeight: 120 }}>
            <SkeletonLines lines={3} />
          </div>
          <div className={ui.card} style={{ minHeight: 160 }}>
            <SkeletonLines lines={3} />
          </div>
        </div>
      </div>
    </div>
  );
}
