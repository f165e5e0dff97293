"use client";
// The last resort: the layout itself failed (e.g. the database is unreachable).
import "./globals.css";
import frame from "./layout.module.css";
import ui from "./_components/ui.module.css";

export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <main id="main" className={frame["site-main"]}>
          <div className={ui.container}>
            <div className={`${ui.card} ${ui["error-state"]}`} role="alert">
              <h1>The service is unavailable</h1>
              <p className={ui.muted}>Please try again in a moment.</p>
              <button type="button" className={ui.button} onClick={() => reset()}>
                Try again
              </button>
            </div>
          </div>
        </main>
      </body>
    </html>
  );
}
