"use client";
// A client component: every page's React payload names its loading state instead of carrying its tree
// (docs/architecture.md#pages-from-data).
import { SkeletonLines } from "../../_components/bits.tsx";
import profileStyles from "./profile.module.css";
import ui from "../../_components/ui.module.css";

export default function Loading() {
  return (
    <div aria-busy="true">
      <span className="visually-hidden" role="status">
        Loading the profile…
      </span>
      <div className={`${ui.card} ${profileStyles["profile-head"]}`} style={{ marginBottom: "1rem", minHeight: 106 }}>
        <div className={ui.skeleton} style={{ width: 72, height: 72, borderRadius: "50%" }} />
        <div style={{ flex: 1 }}>
          <SkeletonLines lines={2} widths={["40%", "60%"]} />
        </div>
      </div>
      <div className={ui["layout-sidebar"]}>
        <div className={ui.stack}>
          <div className={ui.card} style={{ minHeight: 150 }} />
          <div className={ui.card} style={{ minHeight: 320 }} />
          <div className={ui.card} style={{ minHeight: 320 }} />
        </div>
        <div className={ui.stack}>
          <div className={ui.card} style={{ minHeight: 220 }} />
          <div className={ui.card} style={{ minHeight: 160 }} />
        </div>
      </div>
    </div>
  );
}
