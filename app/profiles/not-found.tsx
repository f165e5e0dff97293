"use client";
// A client component: every page's React payload names its not-found page instead of carrying its tree
// (docs/architecture.md#pages-from-data).
import Link from "~/app/_components/link.tsx";
import ui from "../_components/ui.module.css";

export default function ProfileNotFound() {
  return (
    <div className={`${ui.card} ${ui["error-state"]}`}>
      <h1>Profile not found</h1>
      <p className={ui.muted}>Nobody goes by that name or id here.</p>
      <Link href="/" className={ui.button}>
        Explore claims
      </Link>
    </div>
  );
}
