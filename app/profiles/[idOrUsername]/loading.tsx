import { SkeletonLines } from "../../_components/bits.tsx";

export default function Loading() {
  return (
    <div aria-busy="true">
      <span className="visually-hidden" role="status">
        Loading the profile…
      </span>
      <div className="card profile-head" style={{ marginBottom: "1rem", minHeight: 106 }}>
        <div className="skeleton" style={{ width: 72, height: 72, borderRadius: "50%" }} />
        <div style={{ flex: 1 }}>
          <SkeletonLines lines={2} widths={["40%", "60%"]} />
        </div>
      </div>
      <div className="layout-sidebar">
        <div className="stack">
          <div className="card" style={{ minHeight: 150 }} />
          <div className="card" style={{ minHeight: 320 }} />
          <div className="card" style={{ minHeight: 320 }} />
        </div>
        <div className="stack">
          <div className="card" style={{ minHeight: 220 }} />
          <div className="card" style={{ minHeight: 160 }} />
        </div>
      </div>
    </div>
  );
}
