// The words of a live countdown to a check's next date (app/claims/[id]/check-countdown.tsx): pure, no
// I/O, no hooks, no libraries (it is bundled for the browser).
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * The time left in words: to the second in the last hour ("in 12 min 05 s", "in 5 s"), to the minute
 * before ("in 4 h 05 min", "in 2 days 3 h"); null once the date is reached.
 */
export function countdownWords(leftMs: number): string | null {
  if (leftMs <= 0) return null;
  if (leftMs <= HOUR) {
    const s = Math.ceil(leftMs / SECOND);
    const m = Math.floor(s / 60);
    return m ? `in ${m} min ${pad(s % 60)} s` : `in ${s} s`;
  }
  const total = Math.ceil(leftMs / MINUTE);
  const days = Math.floor(total / (24 * 60));
  const hours = Math.floor((total % (24 * 60)) / 60);
  if (days) return `in ${days} ${days === 1 ? "day" : "days"} ${hours} h`;
  return `in ${hours} h ${pad(total % 60)} min`;
}

/** How long until `countdownWords` says something else: the next second in the last hour, the next minute before. */
export function nextChangeMs(leftMs: number): number {
  if (leftMs <= HOUR) return leftMs % SECOND || SECOND;
  return leftMs % MINUTE || MINUTE;
}
