// Small presentational pieces used across pages (no hooks: server and client components can use them).
import Link from "~/app/_components/link.tsx";
import type { ReactNode } from "react";
import { longDate, relativeTime } from "../_lib/format.ts";
import bitsStyles from "./bits.module.css";
import ui from "./ui.module.css";

export function Avatar({ name, size = "" }: { name: string; size?: "" | "small" | "large" }) {
  const initials = name.replace(/[^A-Za-z0-9]/g, "").slice(0, 2) || "?";
  return (
    <span className={`${bitsStyles.avatar} ${size ? bitsStyles[`avatar--${size}`] : ""}`} aria-hidden="true">
      {initials}
    </span>
  );
}

export function RelTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={longDate(iso)} suppressHydrationWarning>
      {relativeTime(iso)}
    </time>
  );
}

export function TagList({ tags, label = "Tags" }: { tags: string[]; label?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className={ui["tag-list"]} aria-label={label}>
      {tags.map((tag) => (
        <li key={tag}>
          <Link href={`/topics/${encodeURIComponent(tag)}`}>{`#${tag}`}</Link>
        </li>
      ))}
    </ul>
  );
}

const TIER_BADGES: Record<string, { words: string; title: string }> = {
  established: { words: "Established", title: "Reputation of 100 or more" },
  trusted: { words: "Trusted", title: "Reputation of 1,000 or more" },
};

/**
 * The reputation tier when it says something: established (100+) or trusted (1,000+). The lowest tier,
 * "new" (under 100), has no badge: beside the reputation number it told nothing more, and it read as a
 * new account on people who have been here for months (docs/features/friction.md#numbers-that-agree).
 */
export function TierBadge({ tier }: { tier: string }) {
  const badge = TIER_BADGES[tier];
  if (!badge) return null;
  return (
    <span className={ui.badge} title={badge.title} data-testid="tier-badge">
      {badge.words}
    </span>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={ui["empty-state"]}>
      <h2>{title}</h2>
      {children}
    </div>
  );
}

export function AuthorLink({ author }: { author: { username: string; display_name: string } }) {
  return (
    <Link href={`/profiles/${encodeURIComponent(author.username)}`} className={bitsStyles.comment__author}>
      {author.display_name}
    </Link>
  );
}

export function SkeletonLines({ lines = 3, widths = ["100%", "92%", "60%"] }: { lines?: number; widths?: string[] }) {
  return (
    <div aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className={`${ui.skeleton} ${ui["skeleton-line"]}`} style={{ width: widths[i % widths.length] }} />
      ))}
    </div>
  );
}
