import { ClaimListSkeleton } from "../_components/list-skeleton.tsx";

export default function Loading() {
  return <ClaimListSkeleton title="Explore claims" sidebar />;
}
