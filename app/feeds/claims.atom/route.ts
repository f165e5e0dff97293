// GET /feeds/claims.atom: the newest claims, as Atom (app/_lib/open-web/feeds.ts).
import { siteFeed } from "../../_lib/open-web/feeds.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export { siteFeed as GET };
