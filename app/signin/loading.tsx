import { SkeletonLines } from "../_components/bits.tsx";

export default function Loading() {
  return (
    <div className="auth-page" aria-busy="true">
      <span className="visually-hidden" role="status">
        Loading…
      </span>
      <div className="card" style={{ minHeight: 420 }}>
        <SkeletonLines lines={5} />
      </div>
    </div>
  );
}
