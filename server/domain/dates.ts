// Dates in words for pages, charts and mail, written with the runtime's own Intl (docs/benchmarks/
// 2026-11-28-lighthouse.md: a date library in every page's scripts cost a phone 11 KB for five patterns).
// English month and day names, in the runtime's time zone (the server's or the browser's).

// Made on first use: building a formatter loads the runtime's locale data, tens of milliseconds on a
// phone, which a page that shows no date (but bundles this module) should not pay at start.
let parts: Intl.DateTimeFormat | undefined;
const dateParts = () =>
  (parts ??= new Intl.DateTimeFormat("en-US", {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }));

const TOKEN = /yyyy|MMM|EEE|HH|mm|ss|d/g;

/**
 * `when` written by a pattern of the tokens `d` (day, 1–31), `MMM` (Jan–Dec), `yyyy`, `EEE` (Mon–Sun),
 * `HH` (00–23), `mm`, `ss`; anything else is kept as written. `formatDate(t, "d MMM yyyy, HH:mm")` →
 * "5 Nov 2026, 14:03".
 */
export function formatDate(when: number | string | Date, pattern: string): string {
  const date = toDate(when);
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of dateParts().formatToParts(date)) part[p.type] = p.value;
  return pattern.replace(TOKEN, (token) => {
    switch (token) {
      case "yyyy":
        return part.year ?? "";
      case "MMM":
        return part.month ?? "";
      case "EEE":
        return part.weekday ?? "";
      case "HH":
        return part.hour ?? "";
      case "mm":
        return part.minute ?? "";
      case "ss":
        return part.second ?? "";
      default:
        return part.day ?? "";
    }
  });
}

const DAY_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day ("2026-11-05", as a timeline's rows carry it) is that day here, not at UTC midnight. */
function toDate(when: number | string | Date): Date {
  if (when instanceof Date) return when;
  const day = typeof when === "string" ? DAY_ONLY.exec(when) : null;
  return day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(when);
}

let relative: Intl.RelativeTimeFormat | undefined;
const relativeFormat = () => (relative ??= new Intl.RelativeTimeFormat("en-US", { numeric: "always" }));
const MINUTES_IN = { hour: 60, day: 1440, month: 43_200, year: 525_600 } as const;

/**
 * "5 minutes ago", "in 3 days": the distance from now in its largest whole unit, rounded (under a
 * minute in seconds, under an hour in minutes, then hours, days, 30-day months — twelve of which
 * read "1 year" — and 365-day years).
 */
export function relativeTime(when: number | string | Date, now = Date.now()): string {
  const at = toDate(when).getTime();
  const seconds = (at - now) / 1000;
  const minutes = Math.abs(seconds) / 60;
  // The unit by the unrounded distance, the number rounded within it ("60 minutes" at 59.7).
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    minutes < 1
      ? [Math.round(Math.abs(seconds)), "second"]
      : minutes < MINUTES_IN.hour
        ? [Math.round(minutes), "minute"]
        : minutes < MINUTES_IN.day
          ? [Math.round(minutes / MINUTES_IN.hour), "hour"]
          : minutes < MINUTES_IN.month
            ? [Math.round(minutes / MINUTES_IN.day), "day"]
            : minutes < MINUTES_IN.year && Math.round(minutes / MINUTES_IN.month) < 12
              ? [Math.round(minutes / MINUTES_IN.month), "month"]
              : [Math.round(minutes / MINUTES_IN.year), "year"];
  return relativeFormat().format(at > now ? value : -value, unit);
}
