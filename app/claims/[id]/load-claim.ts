import { notFound } from "next/navigation";
import { cache } from "react";
import { isTrpcError, publicCaller, serverCaller } from "~/server/api/server-caller.ts";

/**
 * Once per request (layout, metadata and page share it): the claim as anyone sees it, or, when it is
 * hidden from the public, as the viewer sees it (its author and moderators do), with the caller that
 * found it. Neither finds it: notFound().
 */
export const loadClaim = cache(async (id: string) => {
  for (const callerOf of [publicCaller, serverCaller]) {
    const caller = await callerOf();
    try {
      return { claim: await caller.claims.get({ claim_id: id }), caller };
    } catch (err) {
      if (!isTrpcError(err, "NOT_FOUND")) throw err;
    }
  }
  notFound();
});
