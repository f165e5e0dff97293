// GET /sitemap.xml: the sitemap index (app/_lib/open-web/crawl.ts).
import { sitemapIndexResponse } from "../_lib/open-web/crawl.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export { sitemapIndexResponse as GET };
