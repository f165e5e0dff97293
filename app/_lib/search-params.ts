export type SearchParams = Record<string, string | string[] | undefined>;

export function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A non-negative integer offset from the query string (0 when absent or malformed). */
export function offsetParam(value: string | string[] | undefined): number {
  const n = Number(first(value) ?? 0);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}
