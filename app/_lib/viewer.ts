"use client";
// Who is signed in, as the browser learns it. Shared pages are rendered the same for every viewer
// (server/api/server-caller.ts), so the header's menu and each page's own fields (your vote, your
// bookmark, what you may do) are filled in here: the viewer hint cookie (server/http/viewer-hint.ts)
// says at once whether a session is present, and auth.me, asked only then, says who it is.
// A plain fetch and a small store, not the tRPC client: the header is on every page, and a page with
// nothing interactive should not load a query library to draw it (docs/benchmarks/2026-11-28-lighthouse.md).
import { useEffect, useSyncExternalStore } from "react";
import { VIEWER_HINT_COOKIE } from "~/server/domain/viewer-hint.ts";
import type { AgentWithEmail } from "~/server/contract/common.ts";

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
const subscribeToHint = () => () => {};

/** auth.me's answer for this page's life: asked once, again on refreshViewer(). */
type Me = { state: "idle" } | { state: "asking" } | { state: "known"; viewer: Viewer | null };
let me: Me = { state: "idle" };
const listeners = new Set<() => void>();

function setMe(next: Me) {
  me = next;
  for (const listener of listeners) listener();
}

function subscribeToMe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** The latest question asked: an older answer arriving after it is not the news. */
let latestAsk = 0;

function askWhoIAm(): Promise<void> {
  const ask = ++latestAsk;
  const answer = (next: Me) => {
    if (ask === latestAsk) setMe(next);
  };
  const asked = fetch(`/api/trpc/auth.me?input=${encodeURIComponent("{}")}`, { headers: { accept: "application/json" } })
    .then(async (res) => {
      // 401: the session cookie outlived its session. Any other failure: shown as signed out, not stuck.
      const body = res.ok ? ((await res.json()) as { result?: { data?: Viewer } }) : null;
      answer({ state: "known", viewer: body?.result?.data ?? null });
    })
    .catch(() => answer({ state: "known", viewer: null }));
  // Asking again keeps what is known meanwhile: what a viewer's page shows (the vote panel and the
  // confirmation of the vote that asked) stays mounted, not swapped for the unknown state and back.
  if (me.state !== "known") setMe({ state: "asking" });
  return asked;
}

/** Signed out: forget who it was, and the answer to a question still in flight with it. */
function forgetViewer() {
  latestAsk++;
  setMe({ state: "idle" });
}

/** Ask auth.me again (a change to the account, a vote that may change standing); resolves when known. */
export function refreshViewer(): Promise<void> {
  if (!hinted()) {
    forgetViewer();
    return Promise.resolve();
  }
  return askWhoIAm();
}

export function useViewer(): ViewerState {
  // null on the server and while hydrating: the render must match the shared HTML.
  const hint = useSyncExternalStore(subscribeToHint, hinted, () => null);
  const known = useSyncExternalStore(subscribeToMe, () => me, () => me);
  useEffect(() => {
    if (hint === true && me.state === "idle") void askWhoIAm();
    // Signed out (in this tab or another): forget who it was, so the next sign-in asks again.
    if (hint === false && me.state !== "idle") forgetViewer();
  }, [hint]);
  if (hint === null) return UNKNOWN;
  if (!hint) return ANONYMOUS;
  if (known.state !== "known") return UNKNOWN;
  return known.viewer ? { status: "signed-in", viewer: known.viewer } : ANONYMOUS;
}

/** The viewer's role on something `authorId` wrote: what the page offers them. */
export function roleOf(state: ViewerState, authorId: string): "unknown" | "anonymous" | "author" | "member" {
  if (state.status !== "signed-in") return state.status;
  return state.viewer.id === authorId ? "author" : "member";
}
