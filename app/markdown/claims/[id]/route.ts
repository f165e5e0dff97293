// GET /claims/{id}.md (rewritten here by next.config.mjs: the claim page's own segment cannot hold a
// second route): the claim page as Markdown (server/mcp/site.ts).
import { claimMarkdownResponse } from "~/server/mcp/site.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return claimMarkdownResponse(request, id);
}
