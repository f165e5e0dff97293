"use client";
// The claim header's evidence count, following claims.get: adding evidence on this page (which
// refreshes claims.get) or others' evidence arriving live moves it without a reload.
import { useQuery } from "@tanstack/react-query";
import { plural } from "../../_lib/format.ts";
import { useTRPC } from "../../_lib/trpc.tsx";

export function EvidenceCount({ claimId, initial }: { claimId: string; initial: number }) {
  const trpc = useTRPC();
  // The same query as the page's live part (one request): only the count is read here.
  const { data } = useQuery(trpc.claims.get.queryOptions({ claim_id: claimId }));
  const count = data?.evidence_count ?? initial;
  return <span data-testid="claim-evidence-count">{plural(count, "piece of evidence", "pieces of evidence")}</span>;
}
