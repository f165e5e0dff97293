import { notFound } from "next/navigation";
import { cache } from "react";
import { isTrpcError, serverCaller, sharedCaller } from "~/server/api/server-caller.ts";

/** Per request: whether this render is its viewer's own (app/claims/hidden/[id]) or the shared one. */
const scope = cache(() => ({ asViewer: false }));

/** Makes this request's claim render its viewer's own: a hidden claim is found for its author and moderators. */
export function readAsViewer(): void {
  scope().asViewer = true;
}

/**
 * Once per request (layout, metadata and page share it): the claim as anyone sees it — the page Next
 * keeps for every viewer (docs/features/page-cache.md) — or, in the viewer's own render, as the viewer
 * sees it, with the caller that found it. Not found: notFound().
 */
export const loadClaim = cache(async (id: string) => {
  const caller = await (scope().asViewer ? serverCaller() : sharedCaller());
  try {
    return { claim: await caller.claims.get({ claim_id: id }), caller };
  } catch (err) {
    if (!isTrpcError(err, "NOT_FOUND")) throw err;
  }
  notFound();
});
