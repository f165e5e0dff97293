"use client";
// A live countdown to a check's next date (docs/features/checks.md#on-the-site): the server renders the
// time left as of its render, so it reads without JavaScript; in the browser it then ticks — each
// second in the last hour, each minute before — and says what happened once the date is reached. The
// ticking text is not announced (aria-live off); the change at the date is a status, said once.
import { useEffect, useState } from "react";
import { countdownWords, nextChangeMs } from "../../_lib/countdown.ts";

export function CheckCountdown({ label, at, reached }: { label: string; at: string; reached: string }) {
  const target = Date.parse(at);
  // null until mounted: the first render, on the server and hydrating, reads its own clock.
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      const left = target - current;
      if (left > 0) timer = setTimeout(tick, nextChangeMs(left));
    };
    tick();
    return () => clearTimeout(timer);
  }, [target]);
  const left = target - (now ?? Date.now());
  // Reached only once mounted: the server's and the hydrating render have the same shape.
  const done = now !== null && left <= 0;
  return (
    <span data-testid="check-countdown">
      {done ? null : (
        <span aria-live="off">
          {label}{" "}
          {/* A new element once mounted: the server's words (older, on a kept page) are replaced, not kept by hydration. */}
          <time key={now === null ? "served" : "live"} dateTime={at} suppressHydrationWarning>
            {countdownWords(left) ?? "now"}
          </time>
        </span>
      )}
      <span role="status">{done ? reached : ""}</span>
    </span>
  );
}
