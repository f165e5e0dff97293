// GET /embed/claims/{id}: the claim's live card for other sites' iframes (app/_lib/open-web/embed.ts).
// A route handler, not a page: it carries none of the site's chrome (the root layout's header and footer).
import { embedResponse } from "../../../_lib/open-web/embed.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return embedResponse(request, (await params).id);
}
