// Placeholder for a list page while it loads: the same boxes the real page will fill.
import { SkeletonLines } from "./bits.tsx";
import cardStyles from "./claim-card.module.css";
import ui from "./ui.module.css";

export function ClaimListSkeleton({ title, count = 5, sidebar = false }: { title: string; count?: number; sidebar?: boolean }) {
  const list = (
    <ul className={cardStyles["claim-list"]} aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className={ui.card} style={{ minHeight: 118 }}>
          <SkeletonLines lines={3} widths={["90%", "35%", "55%"]} />
        </li>
      ))}
    </ul>
  );
  return (
    <div aria-busy="true">
      <div className={ui["page-header"]}>
        <div>
          <h1>{title}</h1>
          <p className="visually-hidden" role="status">
            Loading…
          </p>
          <div className={`${ui.skeleton} ${ui["skeleton-line"]}`} style={{ width: 260 }} />
        </div>
      </div>
      {sidebar ? (
        <div className={ui["layout-sidebar"]}>
          {list}
          <div className={ui.card} style={{ minHeight: 180 }}>
            <SkeletonLines lines={4} />
          </div>
        </div>
      ) : (
        list
      )}
    </div>
  );
}
