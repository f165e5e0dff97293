// POST /settings/api-keys/mcp-clients/{grantId}/revoke: the settings page's Revoke button for a
// granted MCP client (docs/features/mcp.md#oauth). Same-origin forms of the signed-in person only;
// the grant and every token under it are deleted, then the browser returns to the settings page.
import { revokeMcpGrant } from "~/server/auth/mcp-oauth.ts";
import { publicOrigin } from "~/server/http/public-origin.ts";
import { identityFromNextAuthRequest } from "~/server/nextauth/session.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const SETTINGS = "/settings/api-keys";

export async function POST(request: Request, { params }: { params: Promise<{ grantId: string }> }) {
  const { grantId } = await params;
  const sentFrom = request.headers.get("origin");
  if (sentFrom && sentFrom !== publicOrigin(request)) return Response.json({ detail: "Cross-site form submission refused" }, { status: 403 });
  const identity = await identityFromNextAuthRequest(request.headers);
  if (identity.kind !== "agent") {
    return new Response(null, { status: 303, headers: { Location: `/signin?redirect_to=${encodeURIComponent(SETTINGS)}` } });
  }
  if (grantId.length > 128) return Response.json({ detail: "grant_id: unknown" }, { status: 404 });
  await revokeMcpGrant(identity.agent.id, grantId);
  return new Response(null, { status: 303, headers: { Location: SETTINGS, "Cache-Control": "no-store" } });
}
