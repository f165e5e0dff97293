// A topic nobody has tagged a claim with answers a real 404: it is looked up here, before the first
// byte is sent (a notFound() behind a loading state can only stream a 200; the page has none,
// docs/architecture.md#pages-from-data). docs/features/friction.md
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { publicCaller } from "~/server/api/server-caller.ts";

export default async function TopicLayout({ children, params }: { children: ReactNode; params: Promise<{ tag: string }> }) {
  const caller = await publicCaller();
  const { total } = await caller.discover.topicClaims({ tag: (await params).tag, limit: 1 });
  if (total === 0) notFound();
  return children;
}
