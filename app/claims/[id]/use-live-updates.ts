"use client";
// Keeps an open claim page current (docs/features/following.md#live-claim-pages): subscribes to the claim's
// Server-Sent Events (/api/live/claims/{id}, server/api/live-stream.ts) and refetches what changed —
// the gauge, count and history (claims.get), the evidence, the comments. Bursts are coalesced into one
// refetch. Without EventSource, or with the stream refused, the page is as it was: static until reload.
// After a dropped connection the browser reconnects by itself; everything is refetched then, since
// events may have been missed meanwhile. The page itself is a shared render (server/http/page-cache.ts)
// that its parts refetch, with the viewer's own fields, as soon as they mount.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "../../_lib/trpc.tsx";

/** Events arriving within this window cause one refetch. */
const COALESCE_MS = 250;

type Part = "claim" | "evidence" | "comments";

const PARTS_OF: Record<string, Part[]> = {
  "claim.voted": ["claim"],
  "claim.resolved": ["claim"],
  "claim.evidence_added": ["claim", "evidence"],
  "claim.commented": ["comments"],
  // A check's proposal, dispute and final outcome change what the claim shows (docs/features/checks.md).
  "claim.outcome_proposed": ["claim"],
  "claim.outcome_disputed": ["claim"],
  "claim.outcome_final": ["claim"],
};

export function useLiveUpdates(claimId: string): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(`/api/live/claims/${encodeURIComponent(claimId)}`);
    const pending = new Set<Part>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let opened = false;

    const flush = () => {
      timer = undefined;
      const parts = [...pending];
      pending.clear();
      for (const part of parts) {
        const queryKey =
          part === "claim"
            ? trpc.claims.get.queryKey({ claim_id: claimId })
            : part === "evidence"
              ? trpc.evidence.list.queryKey({ claim_id: claimId })
              : trpc.comments.list.queryKey({ claim_id: claimId });
        void queryClient.invalidateQueries({ queryKey });
        if (part === "comments") void queryClient.invalidateQueries({ queryKey: trpc.comments.replies.pathKey() });
      }
    };
    const schedule = (parts: Part[]) => {
      for (const p of parts) pending.add(p);
      timer ??= setTimeout(flush, COALESCE_MS);
    };

    for (const [type, parts] of Object.entries(PARTS_OF)) source.addEventListener(type, () => schedule(parts));
    source.onopen = () => {
      // A reconnection: whatever happened while the stream was down was not seen.
      if (opened) schedule(["claim", "evidence", "comments"]);
      opened = true;
    };
    return () => {
      source.close();
      clearTimeout(timer);
    };
  }, [claimId, queryClient, trpc]);
}
