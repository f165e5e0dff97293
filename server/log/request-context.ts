// The request a piece of code is running for, across awaits (AsyncLocalStorage): its id goes on every
// log line written while it is handled. One per process (process-singleton.ts): Next's bundles and main.ts share it.
import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "../process-singleton.ts";

export interface RequestContext {
  requestId: string;
  /** Set when a page render read who the viewer is: that render is theirs, never another viewer's. */
  readViewer?: boolean;
}

const storage = processSingleton("claims.requestContext", () => new AsyncLocalStorage<RequestContext>());

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
