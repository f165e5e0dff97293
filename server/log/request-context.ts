// The request a piece of code is running for, across awaits (AsyncLocalStorage): its id goes on every
// log line written while it is handled. Kept on globalThis so Next's bundles and main.ts share one store.
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestContext {
  requestId: string;
  /** Set when a page render read who the viewer is: that render is theirs, never another viewer's. */
  readViewer?: boolean;
}

const globalForContext = globalThis as unknown as { __claimsRequestContext?: AsyncLocalStorage<RequestContext> };
const storage = (globalForContext.__claimsRequestContext ??= new AsyncLocalStorage<RequestContext>());

export function runInRequest<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** Records that the request's response depends on its viewer (server/http/page-cache.ts reads it). */
export function markViewerRead(): void {
  const ctx = storage.getStore();
  if (ctx) ctx.readViewer = true;
}
