// POST /mcp: the MCP endpoint (server/mcp/handler.ts), under `npm start` and `npm run dev` alike: the
// production server hands everything outside /api/v1 to Next, so this route serves both. A person who
// opens the address in a browser (a GET that accepts HTML) is sent to the page that explains how to
// connect an assistant (app/connect); every other GET stays the endpoint's 405.
import { handleMcp } from "~/server/mcp/handler.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Where a browser opening the MCP address is sent (docs/features/mcp.md#connect-an-ai-assistant). */
const CONNECT_PAGE = "/connect";

export function GET(request: Request): Response | Promise<Response> {
  if ((request.headers.get("accept") ?? "").includes("text/html")) {
    return new Response(null, { status: 303, headers: { Location: CONNECT_PAGE, "Cache-Control": "no-store" } });
  }
  return handleMcp(request);
}

export { handleMcp as HEAD, handleMcp as POST, handleMcp as PUT, handleMcp as PATCH, handleMcp as DELETE, handleMcp as OPTIONS };
