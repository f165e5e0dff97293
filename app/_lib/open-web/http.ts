// What the open web's route handlers share (docs/features/open-web.md): they read as an anonymous
// visitor through the same procedures as the pages, so hidden content is never found; absolute
// addresses start at the service's public origin; a refusal is the door's answer (server/door). Each
// request has been charged one unit of the page budget by the node-level guard before it gets here
// (server/http/page-routes.ts), and its body bounded there, as for a page.
import { appRouter } from "~/server/api/root.ts";
import { callErrorBody, createCallerFactory } from "~/server/api/trpc.ts";
import { anonymousWebContext } from "~/server/api/web-context.ts";
import type { ClaimDetail } from "~/server/contract/claims.ts";
import { errorAnswer, errorBodyOf, toResponse, type ErrorBody } from "~/server/door/answers.ts";
import { publicOrigin } from "~/server/http/public-origin.ts";

const createCaller = createCallerFactory(appRouter);

export type OpenWebCaller = ReturnType<typeof createCaller>;

/** The anonymous caller of this request: what any visitor may see. */
export async function visitorCaller(request: Request): Promise<OpenWebCaller> {
  return createCaller(await anonymousWebContext(request.headers));
}

export { publicOrigin };

/**
 * The door's answer to a failed read: as text (a feed reader, a crawler or a browser shows it as it
 * is), or `{code, detail}` where the answer is JSON anyway (oEmbed).
 */
export function refusal(body: ErrorBody, { json = false }: { json?: boolean } = {}): Response {
  return toResponse(errorAnswer(body, { text: !json, headers: { "X-Content-Type-Options": "nosniff" } }));
}

/** 404 naming what was not found. */
export const notFound = (what: string, opts?: { json?: boolean }): Response => refusal(errorBodyOf("not_found", `${what} not found`), opts);

/**
 * A read that failed: not found (or an id that could not name anything) is 404 naming `what`; anything
 * else is the door's answer for it.
 */
export function failed(err: unknown, what: string, log: string, opts?: { json?: boolean }): Response {
  const body = callErrorBody(err, { log });
  return body.code === "not_found" || body.code === "validation_failed" ? notFound(what, opts) : refusal(body, opts);
}

/** The claim as any visitor sees it; throws the procedure's error (a hidden claim is not found). */
export function visibleClaim(caller: OpenWebCaller, id: string): Promise<ClaimDetail> {
  return caller.claims.get({ claim_id: id });
}

/** Whether the request is a HEAD (answered with the headers only). */
export const bodyFor = (request: Request, body: BodyInit): BodyInit | null => (request.method === "HEAD" ? null : body);
