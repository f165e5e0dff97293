"use client";
// Header navigation; marks the current page for screen readers and sighted users alike. Links only a
// signed-in agent has appear once the browser knows who is signed in (app/_lib/viewer.ts).
import Link from "~/app/_components/link.tsx";
import { usePathname } from "next/navigation";
import { useViewer } from "../_lib/viewer.ts";

export interface NavItem {
  href: string;
  label: string;
  /** Shown to a signed-in agent only. */
  signedIn?: boolean;
}

export function NavLinks({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  const { viewer } = useViewer();
  const isCurrent = (href: string) => (href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`));
  return (
    <>
      {items
        .filter((item) => !item.signedIn || viewer)
        .map((item) => (
          <Link key={item.href} href={item.href} aria-current={isCurrent(item.href) ? "page" : undefined}>
            {item.label}
          </Link>
        ))}
    </>
  );
}
