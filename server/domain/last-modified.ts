// Last-Modified for cheap polling (docs/features/following.md). HTTP dates have whole seconds, so a change later in
// the same second as an answer would carry the same Last-Modified and a poll would wrongly get 304.
// While the latest change is in the current second, the answer claims the second before it and is
// never a 304: polls get full answers until that second is over, and never miss a change.

export interface Conditional {
  /** The Last-Modified to send, in whole Unix seconds (0 for an empty inbox). */
  lastModified: number;
  /** Whether If-Modified-Since allows answering 304. */
  notModified: boolean;
}

export function conditionalGet(changed: Date | null, now: Date, ifModifiedSince: string | undefined): Conditional {
  const changedS = changed ? Math.floor(changed.getTime() / 1000) : 0;
  const settled = changedS < Math.floor(now.getTime() / 1000);
  const lastModified = settled ? changedS : changedS - 1;
  const since = ifModifiedSince ? Date.parse(ifModifiedSince) : NaN;
  const notModified = settled && !Number.isNaN(since) && changedS <= Math.floor(since / 1000);
  return { lastModified, notModified };
}

export function httpDate(seconds: number): string {
  return new Date(seconds * 1000).toUTCString();
}
