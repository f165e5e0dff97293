// POST /mcp: the MCP endpoint (server/mcp/handler.ts), under `npm start` and `npm run dev` alike: the
// production server hands everything outside /api/v1 to Next, so this route serves both.
import { handleMcp } from "~/server/mcp/handler.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export { handleMcp as GET, handleMcp as POST, handleMcp as PUT, handleMcp as PATCH, handleMcp as DELETE, handleMcp as OPTIONS };
