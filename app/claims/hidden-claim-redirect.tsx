"use client";
// A claim page that answered "not found" may still be visible to this viewer: a hidden claim is seen by
// its author and moderators. The shared page cannot know who looks (docs/features/page-cache.md), so
// the browser asks, as the viewer, and goes to the viewer's own render of it when the answer is yes.
import { useQuery } from "@tanstack/react-query";
import { useParams, useRouter } from "next/navigation";
import { useEffect } from "react";
import { useTRPC } from "../_lib/trpc.tsx";
import { useViewer } from "../_lib/viewer.ts";

export function HiddenClaimRedirect() {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useParams<{ id?: string }>();
  const id = typeof params?.id === "string" ? params.id : undefined;
  const viewer = useViewer();
  const signedIn = viewer.status === "signed-in";
  const claim = useQuery({ ...trpc.claims.get.queryOptions({ claim_id: id ?? "" }), enabled: signedIn && id !== undefined, retry: false });
  const visible = claim.data?.moderation ? claim.data.id : undefined;
  useEffect(() => {
    if (visible) router.replace(`/claims/hidden/${visible}`);
  }, [visible, router]);
  return null;
}
