// This part of the site reads and writes through the tRPC client: its queries' provider sits here, not
// in the root layout, so pages with nothing interactive load none of it (app/_lib/trpc.tsx).
import type { ReactNode } from "react";
import { Providers } from "../_lib/trpc.tsx";

export default function InteractiveLayout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}
