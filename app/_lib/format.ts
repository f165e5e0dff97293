// Presentation helpers shared by server and client components (no I/O, no hooks).
import { formatDate, relativeTime as relativeFromNow } from "~/server/domain/dates.ts";

export function percent(gradient: number): string {
  return `${Math.round(gradient * 100)}%`;
}

export type GradientTone = "true" | "false" | "neutral";

/** "30 minutes", "1 hour", "90 seconds": a configured wait in words. */
export function durationWords(seconds: number): string {
  if (seconds % 3600 === 0) return plural(seconds / 3600, "hour");
  if (seconds % 60 === 0) return plural(seconds / 60, "minute");
  return plural(seconds, "second");
}

/** "5 minutes ago", or "in 5 minutes" for a moment still to come (a check's dates, a dispute window). */
export function relativeTime(iso: string): string {
  return relativeFromNow(iso);
}

export function longDate(iso: string): string {
  return formatDate(iso, "d MMM yyyy, HH:mm");
}

export function shortDate(iso: string): string {
  return formatDate(iso, "d MMM yyyy");
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

export function compactNumber(n: number): string {
  return new Intl.NumberFormat("en-US", { notation: n >= 10_000 ? "compact" : "standard" }).format(n);
}
