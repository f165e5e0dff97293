// A step chart needs no more points than it has pixels to draw them: a claim's gradient history (up
// to GRADIENT_HISTORY_LIMIT points) is thinned before it is sent to the browser's chart. And every
// time axis carries dates (timeAxis).
import { formatDate } from "./dates.ts";

export interface StepPoint {
  recorded_at: string;
}

/**
 * At most `max` points of a step line, oldest first: the time span is cut into `max - 1` equal buckets
 * and each keeps the last point that falls in it (where the step stood at the end of the bucket), plus
 * the very first point. A line of `max` points or fewer comes back as it is.
 */
export function thinStepPoints<T extends StepPoint>(points: readonly T[], max: number): T[] {
  if (points.length <= max || max < 2) return [...points];
  const first = Date.parse(points[0].recorded_at);
  const span = Date.parse(points[points.length - 1].recorded_at) - first;
  if (span <= 0) return [points[0], points[points.length - 1]];
  const buckets = max - 1;
  const lastInBucket = new Map<number, T>();
  for (let i = 1; i < points.length; i++) {
    const bucket = Math.min(buckets - 1, Math.floor(((Date.parse(points[i].recorded_at) - first) / span) * buckets));
    lastInBucket.set(bucket, points[i]);
  }
  return [points[0], ...[...lastInBucket.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p)];
}

const DAY_MS = 86_400_000;

/** The ticks of a time axis and how each is written. */
export interface TimeAxis {
  ticks: number[];
  label: (t: number) => string;
}

/**
 * Up to `count` evenly spaced ticks from `start` to `end` (epoch ms), each written with its date: a
 * time axis without dates ("19:18" four times) or with one date repeated ("25 Nov" six times) says
 * nothing about when. Ticks a day or more apart show the day; closer ones the day and the time, to the
 * second when minutes would repeat. Ticks that would read the same are dropped.
 */
export function timeAxis(start: number, end: number, count = 5): TimeAxis {
  if (!(end > start)) return { ticks: [start], label: (t) => formatDate(t, "d MMM yyyy, HH:mm") };
  const step = (end - start) / Math.max(1, count - 1);
  const ticks = Array.from({ length: count }, (_, i) => Math.round(start + i * step));
  const yearsDiffer = formatDate(start, "yyyy") !== formatDate(end, "yyyy");
  const patterns = [
    ...(step >= DAY_MS ? [yearsDiffer ? "d MMM yyyy" : "d MMM"] : []),
    yearsDiffer ? "d MMM yyyy HH:mm" : "d MMM HH:mm",
    yearsDiffer ? "d MMM yyyy HH:mm:ss" : "d MMM HH:mm:ss",
  ];
  for (const pattern of patterns) {
    const labels = ticks.map((t) => formatDate(t, pattern));
    if (new Set(labels).size === labels.length) return { ticks, label: (t) => formatDate(t, pattern) };
  }
  // Closer than a second apart: keep the ticks that read differently.
  const pattern = patterns[patterns.length - 1];
  const seen = new Set<string>();
  return { ticks: ticks.filter((t) => !seen.has(formatDate(t, pattern)) && seen.add(formatDate(t, pattern))), label: (t) => formatDate(t, pattern) };
}
