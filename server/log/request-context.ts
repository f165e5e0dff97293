// The request a piece of code is running for, across awaits (AsyncLocalStorage): its id goes on every
// log line written while it is handled. Kept on globalThis so Next's bundles and main.ts share one store.
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestContext {
  requestId: string;
}

const globalForContext = globalThis as unknown as { __claimsRequestContext?: AsyncLocalStorage<RequestContext> };
const storage = (globalForContext.__claimsRequestContext ??= new AsyncLocalStorage<RequestContext>());

export function runInRequest<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
