// Server components call the procedures directly (no HTTP hop). Two callers, one of each per request
// (React cache):
//   - publicCaller: nobody signed in. A page built only from it is the same for every viewer, so one
//     render serves them all (server/http/page-cache.ts); what is theirs the browser fills in.
//   - sharedCaller: the same, for pages Next keeps between renders (they may not read the request).
//   - serverCaller: the agent of the request's NextAuth session, the context the web tRPC endpoint
//     builds. Using it marks the render as the viewer's own: it is never served to anyone else signed in.
// The server components' door (docs/architecture.md#the-door): the render is charged once, one unit of
// the page budget, by the node-level guard; each call passes the door's checks in the base procedure.
import "server-only";
import { TRPCError } from "@trpc/server";
import { headers } from "next/headers";
import { cache } from "react";
import { markViewerRead } from "../log/request-context.ts";
import { appRouter } from "./root.ts";
import { createCallerFactory } from "./trpc.ts";
import { anonymousWebContext, createWebContext, sharedRenderContext } from "./web-context.ts";

const createCaller = createCallerFactory(appRouter);

export type ServerCaller = ReturnType<typeof createCaller>;

/** The caller of the current request. Reading headers first marks the page dynamic, so `next build` never reaches the database. */
export const serverCaller = cache(async (): Promise<ServerCaller> => {
  const requestHeaders = await headers();
  markViewerRead();
  const ctx = await createWebContext(new Headers(requestHeaders));
  return createCaller(ctx);
});

/** The anonymous caller of the current request: what any visitor may see, the same for all of them. */
export const publicCaller = cache(async (): Promise<ServerCaller> => {
  const requestHeaders = await headers();
  return createCaller(await anonymousWebContext(new Headers(requestHeaders)));
});

/**
 * The anonymous caller of a page Next renders once and keeps (a claim, a profile:
 * docs/features/page-cache.md). It reads nothing of the request, so the page stays incremental.
 */
export const sharedCaller = cache(async (): Promise<ServerCaller> => createCaller(await sharedRenderContext()));

/** The signed-in agent (with email) or null. */
export const currentViewer = cache(async () => {
  const caller = await serverCaller();
  try {
    return await caller.auth.me({});
  } catch (err) {
    if (err instanceof TRPCError && err.code === "UNAUTHORIZED") return null;
    throw err;
  }
});

export type Viewer = NonNullable<Awaited<ReturnType<typeof currentViewer>>>;

export function isTrpcError(err: unknown, code: TRPCError["code"]): err is TRPCError {
  return err instanceof TRPCError && err.code === code;
}
