// GET /topics/{tag}/feed.atom: the topic's newest claims, as Atom (app/_lib/open-web/feeds.ts).
import { topicFeed } from "../../../_lib/open-web/feeds.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, { params }: { params: Promise<{ tag: string }> }): Promise<Response> {
  // Next hands the segment over decoded, as to the topic's page.
  return topicFeed(request, (await params).tag);
}
