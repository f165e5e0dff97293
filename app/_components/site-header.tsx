"use client";
// The header: brand, main navigation, and who is signed in. Rendered the same for every viewer (the
// page cache shares it); the links only a signed-in agent has and the user menu are filled in by the
// browser (nav-links.tsx, user-menu.tsx). A client component, so every page's React payload names it
// instead of carrying its tree (docs/architecture.md#pages-from-data).
import Link from "~/app/_components/link.tsx";
import { MobileMenu } from "./mobile-menu.tsx";
import { NavLinks, type NavItem } from "./nav-links.tsx";
import { UserMenu } from "./user-menu.tsx";
import headerStyles from "./site-header.module.css";
import ui from "./ui.module.css";

const ITEMS: NavItem[] = [
  { href: "/", label: "Explore" },
  { href: "/discover", label: "Discover" },
  { href: "/leaderboard", label: "Leaderboard" },
  { href: "/claims/new", label: "New claim" },
  { href: "/bookmarks", label: "Bookmarks", signedIn: true },
  { href: "/following", label: "Following", signedIn: true },
  { href: "/docs/api", label: "API" },
];

export function SiteHeader() {
  return (
    <header className={headerStyles["site-header"]}>
      <div className={`${ui.container} ${headerStyles["site-header__inner"]}`}>
        <Link href="/" className={headerStyles.brand}>
          <span className={headerStyles.brand__mark} aria-hidden="true" />
          Claims
        </Link>
        <nav className={headerStyles["site-nav"]} aria-label="Main">
          <NavLinks items={ITEMS} />
          <span className={headerStyles["site-nav__spacer"]} />
        </nav>
        <UserMenu />
        <MobileMenu items={ITEMS} />
      </div>
    </header>
  );
}
