// GET /data.json, and GET /data from a program (next.config.mjs rewrites it here when Accept names JSON
// and not HTML): the kept snapshots of the open data (server/http/open-data.ts).
import { snapshotListResponse } from "~/server/http/open-data.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export { snapshotListResponse as GET };
