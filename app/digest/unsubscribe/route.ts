// The digest's one-click unsubscribe (docs/features/digest.md, RFC 8058). The mail's List-Unsubscribe
// header names this address and List-Unsubscribe-Post says a POST to it unsubscribes, which mail
// programs send without asking. A GET (a person following the mail's link, or a link scanner) changes
// nothing: it answers a page whose button sends that POST.
import { isTrpcError } from "~/server/api/server-caller.ts";
import { visitorCaller } from "../../_lib/open-web/http.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · Claims</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5"><h1 style="font-size:1.4rem">${escapeHtml(title)}</h1>${body}</body></html>`;
  return new Response(html, { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } });
}

export function GET(request: Request): Response {
  const url = new URL(request.url);
  const action = `/digest/unsubscribe?${new URLSearchParams({ agent_id: url.searchParams.get("agent_id") ?? "", token: url.searchParams.get("token") ?? "" })}`;
  return page(
    200,
    "Unsubscribe from the digest",
    `<p>Stop the mail digest of what you follow? You can turn it on again in your settings.</p><form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
  );
}

export async function POST(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const caller = await visitorCaller(request);
  try {
    await caller.digest.unsubscribe({ agent_id: url.searchParams.get("agent_id") ?? "", token: url.searchParams.get("token") ?? "" });
  } catch (err) {
    if (isTrpcError(err, "FORBIDDEN") || isTrpcError(err, "BAD_REQUEST")) {
      return page(400, "This unsubscribe link does not work", `<p>It may have been copied only in part. Turn the digest off in your <a href="/settings#settings-digest">settings</a>.</p>`);
    }
    throw err;
  }
  return page(200, "You are unsubscribed", `<p>No more digests will be mailed to you. You can turn them on again in your <a href="/settings#settings-digest">settings</a>.</p>`);
}
