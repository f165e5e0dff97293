// GET /data/{snapshot}/{file}: one file of a kept snapshot of the open data, with ETag, Range and
// immutable caching (server/http/open-data.ts).
import { snapshotFileResponse } from "~/server/http/open-data.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, { params }: { params: Promise<{ snapshot: string; file: string }> }): Promise<Response> {
  const { snapshot, file } = await params;
  return snapshotFileResponse(request, snapshot, file);
}
