// The header: brand, main navigation, and who is signed in.
import Link from "next/link";
import { currentViewer } from "~/server/api/server-caller.ts";
import { Avatar } from "./bits.tsx";
import { NavLinks, type NavItem } from "./nav-links.tsx";
import { NotificationBell } from "./notification-bell.tsx";
import { SignOutButton } from "./sign-out-button.tsx";
import headerStyles from "./site-header.module.css";
import ui from "./ui.module.css";

export async function SiteHeader() {
  const viewer = await currentViewer();
  const items: NavItem[] = [
    { href: "/", label: "Explore" },
    { href: "/discover", label: "Discover" },
    { href: "/leaderboard", label: "Leaderboard" },
    { href: "/claims/new", label: "New claim" },
  ];
  if (viewer) items.push({ href: "/bookmarks", label: "Bookmarks" }, { href: "/following", label: "Following" });
  items.push({ href: "/docs/api", label: "API" });
  return (
    <header className={headerStyles["site-header"]}>
      <div className={`${ui.container} ${headerStyles["site-header__inner"]}`}>
        <Link href="/" className={headerStyles.brand}>
          <span className={headerStyles.brand__mark} aria-hidden="true" />
          Claims
        </Link>
        <nav className={headerStyles["site-nav"]} aria-label="Main">
          <NavLinks items={items} />
          <span className={headerStyles["site-nav__spacer"]} />
        </nav>
        <div className={headerStyles["user-menu"]}>
          {viewer ? (
            <>
              <NotificationBell />
              <Link
                href={`/profiles/${encodeURIComponent(viewer.username)}`}
                className={ui.row}
                style={{ textDecoration: "none", color: "var(--text)", fontWeight: 600, gap: "0.4rem" }}
                aria-label={`Your profile (${viewer.display_name})`}
              >
                <Avatar name={viewer.display_name} size="small" />
                <span className={headerStyles["user-menu__name"]} title={viewer.username}>
                  {viewer.username}
                </span>
              </Link>
              <Link href="/settings/api-keys" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}>
                API keys
              </Link>
              {viewer.role !== "member" ? (
                <Link href="/moderation" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}>
                  Moderation
                </Link>
              ) : null}
              <SignOutButton />
            </>
          ) : (
            <>
              <Link href="/signin" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}>
                Sign in
              </Link>
              <Link href="/signup" className={`${ui.button} ${ui["button--small"]}`}>
                Sign up
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
