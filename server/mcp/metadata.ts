// The MCP endpoint's protected-resource metadata (RFC 9728, docs/features/mcp.md): what the resource
// is, which scopes its tokens carry and how they are sent. The `authorization_servers` entry joins it
// with the authorization server for MCP clients; until then clients connect with an access token or
// an API key sent as a Bearer header.
import { publicOrigin } from "../http/public-origin.ts";
import { API_KEY_SCOPES } from "../domain/scopes.ts";
import { MCP_PATH } from "./handler.ts";

export function protectedResourceMetadata(origin: string) {
  return {
    resource: `${origin}${MCP_PATH}`,
    scopes_supported: [...API_KEY_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Claims service MCP server",
    resource_documentation: `${origin}/llms.txt`,
  };
}

export function protectedResourceMetadataResponse(request: Request): Response {
  return Response.json(protectedResourceMetadata(publicOrigin(request)), {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*", "X-Content-Type-Options": "nosniff" },
  });
}
