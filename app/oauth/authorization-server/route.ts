// GET /.well-known/oauth-authorization-server (rewritten here by next.config.mjs): the authorization
// server's metadata for MCP clients (RFC 8414, server/mcp/metadata.ts).
import { authorizationServerMetadataResponse } from "~/server/mcp/metadata.ts";
import { metadataPreflight } from "~/server/oauth/endpoint.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export { authorizationServerMetadataResponse as GET, metadataPreflight as OPTIONS };
