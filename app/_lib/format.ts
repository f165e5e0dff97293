// Presentation helpers shared by server and client components (no I/O, no hooks).
import { format, formatDistanceToNowStrict, parseISO } from "date-fns";
import { consensusDirection } from "~/server/domain/gradient.ts";

export function percent(gradient: number): string {
  return `${Math.round(gradient * 100)}%`;
}

export type GradientTone = "true" | "false" | "neutral";

/** Which way consensus leans: the domain's consensus thresholds decide "true"/"false". */
export function gradientTone(gradient: number): GradientTone {
  const direction = consensusDirection(gradient);
  return direction === true ? "true" : direction === false ? "false" : "neutral";
}

export function gradientLabel(gradient: number, voteCount: number): string {
  if (voteCount === 0) return "No votes yet";
  const direction = consensusDirection(gradient);
  if (direction === true) return "Consensus: true";
  if (direction === false) return "Consensus: false";
  if (gradient > 0.5) return "Leaning true";
  if (gradient < 0.5) return "Leaning false";
  return "Evenly split";
}

export function relativeTime(iso: string): string {
  return `${formatDistanceToNowStrict(parseISO(iso))} ago`;
}

export function longDate(iso: string): string {
  return format(parseISO(iso), "d MMM yyyy, HH:mm");
}

export function shortDate(iso: string): string {
  return format(parseISO(iso), "d MMM yyyy");
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

export function compactNumber(n: number): string {
  return new Intl.NumberFormat("en-US", { notation: n >= 10_000 ? "compact" : "standard" }).format(n);
}
