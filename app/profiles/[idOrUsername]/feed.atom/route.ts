// GET /profiles/{id or username}/feed.atom: the person's newest claims, as Atom (app/_lib/open-web/feeds.ts).
import { profileFeed } from "../../../_lib/open-web/feeds.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, { params }: { params: Promise<{ idOrUsername: string }> }): Promise<Response> {
  return profileFeed(request, (await params).idOrUsername);
}
