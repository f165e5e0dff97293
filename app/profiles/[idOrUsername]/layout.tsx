// A missing profile answers a real 404: it is looked up here, before the first byte is sent (a
// notFound() behind a loading state can only stream a 200; the page has none, docs/architecture.md#pages-from-data).
// docs/features/friction.md
import type { ReactNode } from "react";
import { Providers } from "../../_lib/trpc.tsx";
import { loadProfile } from "./load-profile.ts";

export default async function ProfileLayout({ children, params }: { children: ReactNode; params: Promise<{ idOrUsername: string }> }) {
  await loadProfile((await params).idOrUsername);
  // The profile's charts and lists page through the tRPC client (app/_lib/trpc.tsx).
  return <Providers>{children}</Providers>;
}
