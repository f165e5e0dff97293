"use client";
// A client component: every page's React payload names its loading state instead of carrying its tree
// (docs/architecture.md#pages-from-data).
import { SkeletonLines } from "../_components/bits.tsx";
import authStyles from "./auth.module.css";
import ui from "../_components/ui.module.css";

export default function Loading() {
  return (
    <div className={authStyles["auth-page"]} aria-busy="true">
      <span className="visually-hidden" role="status">
        Loading…
      </span>
      <div className={ui.card} style={{ minHeight: 420 }}>
        <SkeletonLines lines={5} />
      </div>
    </div>
  );
}
