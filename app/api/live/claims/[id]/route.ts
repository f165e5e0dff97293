// The claim page's live channel (Server-Sent Events): server/api/live-stream.ts. The node-level guard
// (server/http/guard.ts) has run before this, as for every request.
import { handleLiveStream } from "~/server/api/live-stream.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return handleLiveStream(request, id);
}
