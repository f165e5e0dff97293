"use client";
// The header's right side: the signed-in agent's bell, profile link, keys, moderation (for moderators)
// and sign-out; or sign-in and sign-up. The server renders the header once for every viewer, so this
// part is filled in by the browser (app/_lib/viewer.ts); until it knows, it holds the space empty.
// The bell, with the query client it polls through, is loaded once someone is signed in: a visitor's
// page carries none of it.
import dynamic from "next/dynamic";
import Link from "~/app/_components/link.tsx";
import { useViewer } from "../_lib/viewer.ts";
import { Avatar } from "./bits.tsx";
import { SignOutButton } from "./sign-out-button.tsx";
import headerStyles from "./site-header.module.css";
import ui from "./ui.module.css";
import bellStyles from "./notification-bell.module.css";

const NotificationBell = dynamic(() => import("./notification-bell.tsx").then((m) => m.NotificationBell), {
  ssr: false,
  loading: () => <span className={bellStyles.bell} aria-hidden="true" />,
});

export function UserMenu() {
  const { status, viewer } = useViewer();
  if (status === "unknown") return <div className={headerStyles["user-menu"]} aria-hidden="true" data-testid="user-menu-pending" />;
  if (!viewer) {
    return (
      <div className={headerStyles["user-menu"]}>
        <Link href="/signin" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}>
          Sign in
        </Link>
        <Link href="/signup" className={`${ui.button} ${ui["button--small"]}`}>
          Sign up
        </Link>
      </div>
    );
  }
  return (
    <div className={headerStyles["user-menu"]}>
      <NotificationBell />
      <Link
        href={`/profiles/${encodeURIComponent(viewer.username)}`}
        className={ui.row}
        style={{ textDecoration: "none", color: "var(--text)", fontWeight: 600, gap: "0.4rem" }}
        aria-label={`Your profile (${viewer.display_name})`}
      >
        <Avatar name={viewer.display_name} size="small" />
        <span className={headerStyles["user-menu__name"]} title={`@${viewer.username}`}>
          {viewer.display_name}
        </span>
      </Link>
      {/* On a phone these are in the menu (mobile-menu.tsx). */}
      <span className={headerStyles["user-menu__extras"]}>
        <Link href="/settings" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}>
          Settings
        </Link>
        {viewer.role !== "member" ? (
          <Link href="/moderation" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}>
            Moderation
          </Link>
        ) : null}
        <SignOutButton />
      </span>
    </div>
  );
}
