// GET /robots.txt (app/_lib/open-web/crawl.ts).
import { robotsResponse } from "../_lib/open-web/crawl.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export { robotsResponse as GET };
