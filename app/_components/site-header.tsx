// The header: brand, main navigation, and who is signed in.
import Link from "next/link";
import { currentViewer } from "~/server/api/server-caller.ts";
import { Avatar } from "./bits.tsx";
import { NavLinks, type NavItem } from "./nav-links.tsx";
import { SignOutButton } from "./sign-out-button.tsx";

export async function SiteHeader() {
  const viewer = await currentViewer();
  const items: NavItem[] = [
    { href: "/", label: "Explore" },
    { href: "/discover", label: "Discover" },
    { href: "/claims/new", label: "New claim" },
  ];
  if (viewer) items.push({ href: "/bookmarks", label: "Bookmarks" }, { href: "/following", label: "Following" });
  items.push({ href: "/docs/api", label: "API" });
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link href="/" className="brand">
          <span className="brand__mark" aria-hidden="true" />
          Claims
        </Link>
        <nav className="site-nav" aria-label="Main">
          <NavLinks items={items} />
          <span className="site-nav__spacer" />
        </nav>
        <div className="user-menu">
          {viewer ? (
            <>
              <Link
                href={`/profiles/${encodeURIComponent(viewer.username)}`}
                className="row"
                style={{ textDecoration: "none", color: "var(--text)", fontWeight: 600, gap: "0.4rem" }}
                aria-label={`Your profile (${viewer.display_name})`}
              >
                <Avatar name={viewer.display_name} size="small" />
                <span className="user-menu__name">{viewer.username}</span>
              </Link>
              <SignOutButton />
            </>
          ) : (
            <>
              <Link href="/signin" className="button button--ghost button--small">
                Sign in
              </Link>
              <Link href="/signup" className="button button--small">
                Sign up
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
