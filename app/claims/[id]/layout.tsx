// A missing claim answers a real 404: the claim is looked up here, above the page's loading state,
// before the first byte is sent (a notFound() behind a loading state can only stream a 200).
// docs/features/friction.md
import type { ReactNode } from "react";
import { loadClaim } from "./load-claim.ts";

export default async function ClaimLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  await loadClaim((await params).id);
  return children;
}
