"use client";
// The settings navigation; marks the page that is open.
import Link from "~/app/_components/link.tsx";
import { usePathname } from "next/navigation";
import styles from "./settings.module.css";

const PAGES = [
  { href: "/settings", label: "Account" },
  { href: "/settings/api-keys", label: "API keys" },
  { href: "/settings/webhooks", label: "Webhooks" },
];

export function SettingsNav() {
  const pathname = usePathname();
  return (
    <nav className={styles.nav} aria-label="Settings">
      {PAGES.map((page) => (
        <Link key={page.href} href={page.href} aria-current={pathname === page.href ? "page" : undefined}>
          {page.label}
        </Link>
      ))}
    </nav>
  );
}
