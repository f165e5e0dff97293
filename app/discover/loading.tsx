"use client";
// A client component: every page's React payload names its loading state instead of carrying its tree
// (docs/architecture.md#pages-from-data).
import { ClaimListSkeleton } from "../_components/list-skeleton.tsx";

export default function Loading() {
  return <ClaimListSkeleton title="Discover" sidebar />;
}
