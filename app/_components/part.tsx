// A part of a page the browser hydrates on its own. Nothing inside suspends (the server renders it
// whole, no fallback is ever shown), but React hydrates each Suspense boundary as its own piece of work
// and yields to the browser between them: a page of several such parts never costs a phone one long
// task (docs/benchmarks/2026-11-28-lighthouse.md).
import { Suspense, type ReactNode } from "react";

export function Part({ children }: { children: ReactNode }) {
  return <Suspense>{children}</Suspense>;
}
