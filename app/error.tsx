"use client";
// Any page that failed to render: say so plainly and offer a retry (the details stay on the server).
import Link from "~/app/_components/link.tsx";
import { useEffect } from "react";
import ui from "./_components/ui.module.css";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className={`${ui.card} ${ui["error-state"]}`} role="alert">
      <h1>Something went wrong</h1>
      <p className={ui.muted}>This page could not be loaded. It is probably temporary.</p>
      <div className={ui["form-actions"]} style={{ justifyContent: "center" }}>
        <button type="button" className={ui.button} onClick={() => reset()}>
          Try again
        </button>
        <Link href="/" className={`${ui.button} ${ui["button--secondary"]}`}>
          Go to Explore
        </Link>
      </div>
      {error.digest ? <p className={ui.note} style={{ marginTop: "1rem" }}>Reference: {error.digest}</p> : null}
    </div>
  );
}
