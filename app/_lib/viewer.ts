"use client";
// Who is signed in, as the browser learns it. Shared pages are rendered the same for every viewer
// (server/api/server-caller.ts), so the header's menu and each page's own fields (your vote, your
// bookmark, what you may do) are filled in here: the viewer hint cookie (server/http/viewer-hint.ts)
// says at once whether a session is present, and auth.me, asked only then, says who it is.
import { useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { VIEWER_HINT_COOKIE } from "~/server/domain/viewer-hint.ts";
import type { AgentWithEmail } from "~/server/contract/common.ts";
import { useTRPC } from "./trpc.tsx";

export type Viewer = AgentWithEmail;

export type ViewerState =
  /** Not known yet: the server's render (the same for everyone), or waiting for auth.me. */
  | { status: "unknown"; viewer: null }
  | { status: "anonymous"; viewer: null }
  | { status: "signed-in"; viewer: Viewer };

const UNKNOWN: ViewerState = { status: "unknown", viewer: null };
const ANONYMOUS: ViewerState = { status: "anonymous", viewer: null };

function hinted(): boolean {
  return document.cookie.split(/;\s*/).includes(`${VIEWER_HINT_COOKIE}=1`);
}

// The hint changes only with a response that also re-renders what reads it (a navigation).
const subscribe = () => () => {};

export function useViewer(): ViewerState {
  const trpc = useTRPC();
  // null on the server and while hydrating: the render must match the shared HTML.
  const hint = useSyncExternalStore(subscribe, hinted, () => null);
  const me = useQuery({ ...trpc.auth.me.queryOptions({}), enabled: hint === true, staleTime: 5 * 60_000, retry: false });
  if (hint === null) return UNKNOWN;
  if (!hint) return ANONYMOUS;
  if (me.data) return { status: "signed-in", viewer: me.data };
  // 401: the session cookie outlived its session. Any other failure: shown as signed out, not stuck.
  if (me.isError) return ANONYMOUS;
  return UNKNOWN;
}

/** The viewer's role on something `authorId` wrote: what the page offers them. */
export function roleOf(state: ViewerState, authorId: string): "unknown" | "anonymous" | "author" | "member" {
  if (state.status !== "signed-in") return state.status;
  return state.viewer.id === authorId ? "author" : "member";
}
