"use client";
// The phone's navigation (docs/features/friction.md): one "Menu" button opening a list of every
// destination — the main links and the account's own — instead of a strip cut off at the screen's
// edge. Hidden on wider screens (site-header.module.css), where the header shows them all.
import Link from "~/app/_components/link.tsx";
import { usePathname } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { useViewer } from "../_lib/viewer.ts";
import type { NavItem } from "./nav-links.tsx";
import { SignOutButton } from "./sign-out-button.tsx";
import headerStyles from "./site-header.module.css";
import ui from "./ui.module.css";

export function MobileMenu({ items }: { items: NavItem[] }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const { viewer } = useViewer();
  const id = useId();
  // A followed link closes the menu.
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  const links: NavItem[] = [
    ...items.filter((item) => !item.signedIn || viewer),
    ...(viewer
      ? [
          { href: `/profiles/${encodeURIComponent(viewer.username)}`, label: "Your profile" },
          { href: "/notifications", label: "Notifications" },
          { href: "/settings", label: "Settings" },
          ...(viewer.role !== "member" ? [{ href: "/moderation", label: "Moderation" }] : []),
        ]
      : [
          { href: "/signin", label: "Sign in" },
          { href: "/signup", label: "Sign up" },
        ]),
  ];

  return (
    <div className={headerStyles["mobile-menu"]}>
      <button
        type="button"
        className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">☰</span> Menu
      </button>
      {/* The list exists only while open: the button needs the browser anyway, and every page's HTML
          would otherwise carry the header's links twice (docs/benchmarks/2026-11-25-page-weight.md). */}
      <nav id={`${id}-panel`} aria-label="Menu" className={headerStyles["mobile-menu__panel"]} hidden={!open}>
        {open ? (
          <ul>
            {links.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={pathname === item.href ? "page" : undefined} onClick={() => setOpen(false)}>
                  {item.label}
                </Link>
              </li>
            ))}
            {viewer ? (
              <li>
                <SignOutButton />
              </li>
            ) : null}
          </ul>
        ) : null}
      </nav>
    </div>
  );
}
