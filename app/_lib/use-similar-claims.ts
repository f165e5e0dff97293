"use client";
// Claims like the statement being typed (docs/features/arguments.md#similar-claims), asked once the
// person pauses: the new-claim form offers them instead of a duplicate, the add-an-argument form
// offers to link one.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "./trpc.tsx";
import { useDebounced } from "./use-debounced.ts";

const PAUSE_MS = 300;
const LIMIT = 5;

/** `asking`: the typed statement is long enough to ask about; `claims` leaves out `exclude` (the claim itself). */
export function useSimilarClaims(statement: string, minLength: number, exclude?: string) {
  const trpc = useTRPC();
  const typed = useDebounced(statement.trim(), PAUSE_MS);
  const asking = typed.length >= minLength;
  const similar = useQuery({ ...trpc.claims.similar.queryOptions({ q: typed, limit: LIMIT }), enabled: asking });
  const claims = asking ? (similar.data?.claims ?? []).filter((c) => c.id !== exclude) : [];
  return { asking, claims, loading: similar.isLoading };
}
