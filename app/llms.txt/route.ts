// GET /llms.txt: what the service is and where an agent goes next (server/mcp/site.ts).
import { llmsTxtResponse } from "~/server/mcp/site.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export { llmsTxtResponse as GET };
