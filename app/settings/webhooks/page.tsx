// The signed-in agent's webhooks (docs/features/following.md): endpoints that are called when something happens on
// the claims they follow. Create one (its secret shown once), see deliveries, rotate the secret,
// redeliver, send a test ping, delete — the procedures of /api/v1/webhooks.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentViewer, serverCaller } from "~/server/api/server-caller.ts";
import { WEBHOOK_EVENT_TYPES } from "~/server/domain/webhook-events.ts";
import { WebhooksManager } from "./webhooks-manager.tsx";
import ui from "../../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const viewer = await currentViewer();
  if (!viewer) redirect(`/signin?redirect_to=${encodeURIComponent("/settings/webhooks")}`);
  const caller = await serverCaller();
  const { webhooks } = await caller.webhooks.list({});
  return (
    <div style={{ maxWidth: 960, margin: "0 auto" }}>
      <div className={ui["page-header"]}>
        <div>
          <h1>Webhooks</h1>
          <p>
            For programs that would rather be called than poll: each endpoint receives the events of the claims you follow (and the outcome of a check on a claim
            you voted on), signed
            following <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> (see the <a href="/docs/api">API</a>). URLs must
            be <code>https://</code> and public.
          </p>
        </div>
      </div>
      <WebhooksManager initialWebhooks={webhooks} eventTypes={[...WEBHOOK_EVENT_TYPES]} />
    </div>
  );
}
