"use client";
// A client component: every page's React payload names its loading state instead of carrying its tree
// (docs/architecture.md#pages-from-data).
import { SkeletonLines } from "../../_components/bits.tsx";
import ui from "../../_components/ui.module.css";

export default function Loading() {
  return (
    <div style={{ maxWidth: 760, margin: "0 auto" }} aria-busy="true">
      <span className="visually-hidden">Loading…</span>
      <div className={ui.skeleton} style={{ height: "2rem", width: "40%", marginBottom: "1.5rem" }} />
      <div className={ui.card} style={{ minHeight: 520 }}>
        <SkeletonLines lines={6} />
      </div>
    </div>
  );
}
