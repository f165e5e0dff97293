// What the page store (server/cache/page-store.ts, which Next imports itself) shares with the rest of
// the process: the handler Next made. One per process (server/process-singleton.ts), because Next's
// import of the handler and ours may be two copies of the module. Free of the handler's dependencies,
// so that the server's own code can reach the store without loading them.

import type IORedis from "ioredis";
import { processSingleton } from "../process-singleton.ts";
import type { PageLedger } from "./page-store-cap.ts";

export type PageStoreBackend = "redis" | "file-system";

/** The store's size cap (server/cache/page-store-cap.ts): its ledger, and how a page it names is removed. */
export interface PageStoreCap {
  ledger: PageLedger;
  remove(key: string): Promise<void>;
  /** Settles once what earlier processes left in the store is counted too. */
  seeded?: Promise<void>;
}

interface Handler {
  revalidateTag(tags: string | string[], durations?: unknown): Promise<void>;
  holds(pathname: string): Promise<boolean>;
}

interface PageStoreState {
  /** The last handler Next made in this process (none before the first page is served). */
  latest?: Handler;
  redisConfigured?: boolean;
  /** The file-system store's folder, found once per process (Next makes a handler per request). */
  fileSystemDir?: string;
  /** One per process, like the folder or the Redis namespace it keeps within bounds. */
  cap?: PageStoreCap;
  /** The Redis store's connection and its handler's removal of one page (set once the store is made). */
  redisPages?: { client: IORedis; remove(key: string): Promise<void> };
}

export function pageStoreState(): PageStoreState {
  return processSingleton("claims.pageStore", (): PageStoreState => ({}));
}

/**
 * The pages Next keeps between renders, by address, with the source route Next keys each one's entry
 * by (app/claims/[id], app/profiles/[idOrUsername]). Not /claims/new, nor /claims/hidden/{id} (rendered
 * per viewer).
 */
const KEPT_ROUTES: readonly [RegExp, string][] = [
  [/^\/claims\/(?!hidden\/|new\/?$)[^/?#]+\/?$/, "/claims/[id]/page"],
  [/^\/profiles\/[^/?#]+\/?$/, "/profiles/[idOrUsername]/page"],
];

/** The source route of the kept page at `pathname`, or null when Next renders that page per request. */
export function keptPageRoute(pathname: string): string | null {
  return KEPT_ROUTES.find(([pattern]) => pattern.test(pathname))?.[1] ?? null;
}

/** The root layout's implicit tag: every page Next keeps carries it. */
const EVERY_PAGE_TAG = "_N_T_/layout";

/**
 * Makes every kept page stale at once (moderation hid or restored something): each renders anew on its
 * next view. In Redis this reaches every instance; on the file system, each instance calls it itself.
 */
export async function dropEveryKeptPage(): Promise<void> {
  await pageStoreState().latest?.revalidateTag([EVERY_PAGE_TAG]);
}

/**
 * Whether the store holds a render of the kept page at `pathname`; null when this process cannot tell
 * yet (Next makes the store on the first request that needs it).
 */
export async function holdsKeptPage(pathname: string): Promise<boolean | null> {
  const store = pageStoreState().latest;
  return store ? store.holds(pathname) : null;
}
