// The signed-in agent's inbox (docs/features/following.md): one thread per followed claim, unread first in weight,
// most recently updated first; mark one or all read. Reads notifications.list like GET /api/v1/notifications.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { redirect } from "next/navigation";
import { currentViewer, serverCaller } from "~/server/api/server-caller.ts";
import { InboxList } from "./inbox-list.tsx";
import ui from "../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Notifications" };

/** Threads shown (the most recently updated). */
const INBOX_PAGE = 50;

export default async function NotificationsPage() {
  const viewer = await currentViewer();
  if (!viewer) redirect(`/signin?redirect_to=${encodeURIComponent("/notifications")}`);
  const caller = await serverCaller();
  const initial = await caller.notifications.list({ limit: INBOX_PAGE, offset: 0 });
  return (
    <div style={{ maxWidth: 900, margin: "0 auto" }}>
      <div className={ui["page-header"]}>
        <div>
          <h1>Notifications</h1>
          <p>
            What happened on the claims you follow: one thread per claim, counting what is new since you last read it. Programs can be
            called instead: <Link href="/settings/webhooks">webhooks</Link>.
          </p>
        </div>
      </div>
      <InboxList initial={initial} pageSize={INBOX_PAGE} />
    </div>
  );
}
