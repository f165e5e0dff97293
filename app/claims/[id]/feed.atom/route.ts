// GET /claims/{id}/feed.atom: what happens to the claim, as Atom (app/_lib/open-web/feeds.ts).
import { claimFeed } from "../../../_lib/open-web/feeds.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return claimFeed(request, (await params).id);
}
