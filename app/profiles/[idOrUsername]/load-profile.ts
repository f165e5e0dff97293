import { notFound } from "next/navigation";
import { cache } from "react";
import { isTrpcError, sharedCaller } from "~/server/api/server-caller.ts";

/**
 * Once per request (layout, metadata and page share it): the profile by id or username, or notFound().
 * The segment arrives decoded by Next: decoding it again would turn "%2541" into "A".
 */
export const loadProfile = cache(async (idOrUsername: string) => {
  const caller = await sharedCaller();
  try {
    return await caller.profiles.get({ agent_id: idOrUsername });
  } catch (err) {
    if (isTrpcError(err, "NOT_FOUND")) notFound();
    throw err;
  }
});
