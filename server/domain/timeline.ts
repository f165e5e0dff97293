// Profile activity timeline (docs/api.md#discovery): one point per UTC day, days + 1 points, oldest first.

export type TimelinePeriod = "7d" | "30d" | "90d";
export const TIMELINE_PERIODS: readonly TimelinePeriod[] = ["7d", "30d", "90d"];
export const DEFAULT_TIMELINE_PERIOD: TimelinePeriod = "30d";
export const PERIOD_DAYS: Record<TimelinePeriod, number> = { "7d": 7, "30d": 30, "90d": 90 };

const DAY_MS = 24 * 60 * 60 * 1000;

export interface TimelinePoint {
  date: string;
  claims: number;
  evidence: number;
  votes: number;
  comments: number;
}

/** A count row as the DB returns it; raw SQL COUNT(*) may come back as bigint. */
export interface TimelineRow {
  date: string | Date;
  claims?: number | bigint;
  evidence?: number | bigint;
  votes?: number | bigint;
  comments?: number | bigint;
}

/** 'YYYY-MM-DD' of the UTC day containing `d`. */
function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Midnight UTC of the first day of the period: query activity at or after this instant. */
export function timelineStart(period: TimelinePeriod, now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - PERIOD_DAYS[period] * DAY_MS);
}

/** The period's days, from `days` days ago up to today (both included), oldest first. */
export function timelineDays(period: TimelinePeriod, now: Date): string[] {
  const start = timelineStart(period, now).getTime();
  return Array.from({ length: PERIOD_DAYS[period] + 1 }, (_, i) => utcDay(new Date(start + i * DAY_MS)));
}

/** One point per day, zeros where there is no row; rows outside the days are ignored and rows for
 *  the same day are added up (so claims, evidence, ... may come from separate queries). */
export function fillTimeline(days: readonly string[], rows: readonly TimelineRow[]): TimelinePoint[] {
  const points = new Map<string, TimelinePoint>(
    days.map((date) => [date, { date, claims: 0, evidence: 0, votes: 0, comments: 0 }]),
  );
  for (const row of rows) {
    const date = typeof row.date === "string" ? row.date.slice(0, 10) : utcDay(row.date);
    const p = points.get(date);
    if (!p) continue;
    p.claims += Number(row.claims ?? 0);
    p.evidence += Number(row.evidence ?? 0);
    p.votes += Number(row.votes ?? 0);
    p.comments += Number(row.comments ?? 0);
  }
  return [...points.values()];
}
