// The moderation page (docs/features/moderation.md): the queue of reported content with one-click actions, and the
// audit log. Moderators and admins only: the procedures answer 403 to anyone else, and so does the page.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentViewer, isTrpcError, serverCaller } from "~/server/api/server-caller.ts";
import { ModerationQueue } from "./moderation-queue.tsx";
import ui from "../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Moderation" };

export default async function ModerationPage() {
  const viewer = await currentViewer();
  if (!viewer) redirect(`/signin?redirect_to=${encodeURIComponent("/moderation")}`);
  const caller = await serverCaller();
  try {
    const [queue, audit] = await Promise.all([caller.moderation.queue({ limit: 50 }), caller.moderation.audit({ limit: 50 })]);
    return (
      <div style={{ maxWidth: 1000, margin: "0 auto" }}>
        <div className={ui["page-header"]}>
          <div>
            <h1>Moderation</h1>
            <p>Reported content, most reported first. Hiding takes it out of every list, search, count and statistic; restoring brings it back as it was.</p>
          </div>
        </div>
        <ModerationQueue initialQueue={queue} audit={audit} />
      </div>
    );
  } catch (err) {
    if (isTrpcError(err, "FORBIDDEN")) {
      return (
        <div style={{ maxWidth: 700, margin: "0 auto" }}>
          <h1>Moderation</h1>
          <p role="alert">Insufficient permissions: this page is for moderators.</p>
        </div>
      );
    }
    throw err;
  }
}
