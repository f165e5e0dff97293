// A step chart needs no more points than it has pixels to draw them: a claim's gradient history (up
// to GRADIENT_HISTORY_LIMIT points) is thinned before it is sent to the browser's chart.

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
