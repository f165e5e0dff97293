// The layout of a part of the site that reads and writes through the tRPC client: its queries'
// provider sits there, not in the root layout, so pages with nothing interactive load none of it
// (app/_lib/trpc.tsx). Such a part's layout.tsx re-exports this one.
import type { ReactNode } from "react";
import { Providers } from "../_lib/trpc.tsx";

export default function InteractiveLayout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}
