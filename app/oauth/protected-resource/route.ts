// GET /.well-known/oauth-protected-resource (rewritten here by next.config.mjs): the MCP endpoint's
// protected-resource metadata (RFC 9728), where the 401 of /mcp points (server/mcp/metadata.ts).
import { protectedResourceMetadataResponse } from "~/server/mcp/metadata.ts";
import { metadataPreflight } from "~/server/oauth/endpoint.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export { protectedResourceMetadataResponse as GET, metadataPreflight as OPTIONS };
