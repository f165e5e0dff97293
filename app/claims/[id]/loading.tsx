import { SkeletonLines } from "../../_components/bits.tsx";

export default function Loading() {
  return (
    <div aria-busy="true" aria-live="polite">
      <span className="visually-hidden">Loading the claim…</span>
      <div className="claim-hero">
        <div className="skeleton" style={{ height: "2.2rem", width: "85%", marginBottom: "0.6rem" }} />
        <div className="skeleton" style={{ height: "2.2rem", width: "55%", marginBottom: "1rem" }} />
        <SkeletonLines lines={1} widths={["40%"]} />
      </div>
      <div className="layout-sidebar">
        <div className="stack">
          <div className="card" style={{ minHeight: 480 }}>
            <SkeletonLines lines={6} />
          </div>
          <div className="card" style={{ minHeight: 240 }}>
            <SkeletonLines lines={4} />
          </div>
        </div>
        <div className="stack">
          <div className="card" style={{ minHeight: 120 }}>
            <SkeletonLines lines={3} />
          </div>
          <div className="card" style={{ minHeight: 160 }}>
            <SkeletonLines lines={3} />
          </div>
        </div>
      </div>
    </div>
  );
}
