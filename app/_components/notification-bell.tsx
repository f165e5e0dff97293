"use client";
// The header's bell: a link to the inbox (/notifications) with the number of unread threads. It reads
// notifications.list (one row, for its unread_count) and looks again every 30 s and when the window
// regains focus; the inbox page's mark-read refreshes it at once (same query path, one client per tab).
// Loaded only once someone is signed in (user-menu.tsx), with the query client it needs.
import { useQuery } from "@tanstack/react-query";
import Link from "~/app/_components/link.tsx";
import { Providers, useTRPC } from "../_lib/trpc.tsx";
import styles from "./notification-bell.module.css";

const POLL_MS = 30_000;

export function NotificationBell() {
  return (
    <Providers>
      <Bell />
    </Providers>
  );
}

function Bell() {
  const trpc = useTRPC();
  const { data } = useQuery({
    ...trpc.notifications.list.queryOptions({ unread: "true", limit: 1 }),
    refetchInterval: POLL_MS,
    refetchOnWindowFocus: true,
    staleTime: 5_000,
  });
  const unread = data?.unread_count ?? 0;
  const label = unread === 0 ? "Notifications" : `Notifications (${unread} unread)`;
  return (
    <Link href="/notifications" className={styles.bell} aria-label={label} title={label} data-testid="notification-bell">
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
        />
      </svg>
      {unread > 0 ? (
        <span className={styles.count} data-testid="notification-count" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}
