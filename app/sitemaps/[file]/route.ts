// GET /sitemaps/{file}: one file the sitemap index names (app/_lib/open-web/crawl.ts).
import { sitemapFileResponse } from "../../_lib/open-web/crawl.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  return sitemapFileResponse(request, (await params).file);
}
