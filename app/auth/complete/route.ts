// The OAuth hand-off: NextAuth's callback has just signed the browser in and sends it here; it leaves
// for `redirect_to` with a one-time `?code=` that POST /api/v1/auth/oauth/exchange turns into a token
// pair (docs/api.md#sign-in). `redirect_to` is checked again: anyone can link to this URL.
import { readNextAuthSession } from "~/server/nextauth/session.ts";
import { safeRedirectPath } from "~/server/domain/redirect.ts";
import { dbReady } from "~/server/db/client.ts";
import { handOffLocation } from "~/server/services/oauth.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request): Promise<Response> {
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirect_to")) ?? "/";
  await dbReady();
  const location = await handOffLocation(await readNextAuthSession(request.headers), redirectTo);
  return new Response(null, {
    status: 303,
    // A relative Location: the browser stays on the origin it is on, whatever the Host header says.
    headers: { Location: location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });
}
