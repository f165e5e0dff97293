"use client";
// Placeholders while a list page or a part of it loads: the same boxes the real page will fill. Client
// components (docs/architecture.md#pages-from-data): a loading state or a Suspense fallback is in every
// page's React payload, and as a client component it travels there as its name and props, not as its tree.
import { SkeletonLines } from "./bits.tsx";
import cardStyles from "./claim-card.module.css";
import statsStyles from "./stats-bar.module.css";
import ui from "./ui.module.css";

export function ClaimListSkeleton({ title, count = 5, sidebar = false }: { title: string; count?: number; sidebar?: boolean }) {
  const list = (
    <ul className={cardStyles["claim-list"]} aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className={`${ui.card} ${cardStyles["claim-skeleton"]}`}>
          <div className={`${ui.skeleton} ${ui["skeleton-line"]}`} />
          <div className={`${ui.skeleton} ${ui["skeleton-line"]}`} />
          <div className={`${ui.skeleton} ${ui["skeleton-line"]}`} />
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

export function SidebarCardSkeleton({ title, minHeight }: { title: string; minHeight: number }) {
  return (
    <section className={ui.card} style={{ minHeight }} aria-busy="true">
      <h2 className={ui.card__title}>{title}</h2>
      <SkeletonLines lines={4} />
    </section>
  );
}

/** The platform's numbers while they load (stats-bar.tsx): one box per number. */
export function StatsBarSkeleton({ count }: { count: number }) {
  return (
    <div className={statsStyles["stats-bar"]} aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <div className={statsStyles.stat} key={i}>
          <div className={`${ui.skeleton} ${statsStyles["stat-skeleton"]}`} />
        </div>
      ))}
    </div>
  );
}
