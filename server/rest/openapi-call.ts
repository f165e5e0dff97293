// Reliance on trpc-to-openapi's internals, kept here and nowhere else: its node handler driven with a
// hand-made request and response instead of node's. The request's prototype is the Fetch API's
// Request: for a node request, trpc-to-openapi builds a whole Fetch Request (headers copied, an
// AbortController) only to read its `signal` — 10–20 % of the CPU of a cheap call. What it reads of
// each is listed below; tests/unit/library-internals.test.ts fails, naming the member, when an
// upgrade reads anything else.
import type { AnyRouter } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";

/** The members of the request trpc-to-openapi reads (everything else is absent). */
export const REQUEST_MEMBERS = ["method", "url", "headers", "body", "signal"] as const;
/** Read but left absent on purpose: without `query`, trpc-to-openapi parses the query string from `url` (and sets it). */
export const ABSENT_REQUEST_MEMBERS = ["query"] as const;
/** The members of the response trpc-to-openapi uses. */
export const RESPONSE_MEMBERS = ["statusCode", "setHeader", "once", "off", "on", "writableEnded", "end"] as const;

/** The body, already parsed and checked by the caller, is JSON as far as trpc-to-openapi is concerned. */
const JSON_HEADERS = { get: (name: string) => (name.toLowerCase() === "content-type" ? "application/json" : null) };

export function procedureRequest(method: string, url: string, body: unknown): object {
  return Object.create(Request.prototype, {
    method: { value: method },
    url: { value: url },
    headers: { value: JSON_HEADERS },
    body: { value: body },
    signal: { value: new AbortController().signal },
  });
}

export interface ProcedureReply {
  status: number;
  body: string;
}

export function procedureResponse(done: (reply: ProcedureReply) => void): object {
  const noop = () => {};
  return {
    statusCode: 200,
    setHeader: noop,
    once: noop,
    off: noop,
    on: noop,
    writableEnded: false,
    end(this: { statusCode: number; writableEnded: boolean }, chunk?: string) {
      this.writableEnded = true;
      done({ status: this.statusCode, body: chunk ?? "" });
    },
  };
}

export type ProcedureCaller<TContext> = (method: string, url: string, body: unknown, ctx: TContext) => Promise<ProcedureReply>;

/**
 * A function running one REST call of `router` through trpc-to-openapi. `wrap` lets the internals
 * test watch the request and response; the running code passes none.
 */
export function openApiCaller<TContext extends object>(
  router: AnyRouter,
  onError: Parameters<typeof createOpenApiNodeHttpHandler>[0]["onError"],
  wrap: <T extends object>(value: T) => T = (value) => value,
): ProcedureCaller<TContext> {
  const contexts = new WeakMap<object, TContext>();
  const handle = createOpenApiNodeHttpHandler({
    router,
    createContext: ({ req }: { req: object }) => contexts.get(req)!,
    onError,
  } as Parameters<typeof createOpenApiNodeHttpHandler>[0]);
  return (method, url, body, ctx) =>
    new Promise((resolve, reject) => {
      const req = wrap(procedureRequest(method, url, body));
      const res = wrap(procedureResponse(resolve));
      contexts.set(req, ctx);
      // @ts-expect-error: the adapter only touches the members provided above.
      handle(req, res).catch(reject);
    });
}
