"use client";
// The last resort: the layout itself failed (e.g. the database is unreachable).
import "./globals.css";

export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <main id="main" className="site-main">
          <div className="container">
            <div className="card error-state" role="alert">
              <h1>The service is unavailable</h1>
              <p className="muted">Please try again in a moment.</p>
              <button type="button" className="button" onClick={() => reset()}>
                Try again
              </button>
            </div>
          </div>
        </main>
      </body>
    </html>
  );
}
