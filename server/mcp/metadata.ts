// The MCP endpoint's protected-resource metadata (RFC 9728) and the authorization server's (RFC 8414),
// docs/features/mcp.md#oauth: what the resource is, which scopes its tokens carry, how they are sent,
// and where an MCP client registers, sends the person to consent, and gets its tokens.
import { PUBLIC_DOCUMENT_HEADERS } from "../door/answers.ts";
import { publicOrigin } from "../http/public-origin.ts";
import { API_KEY_SCOPES } from "../domain/scopes.ts";
import { authorizationServerMetadata } from "../oauth/provider.ts";
import { MCP_PATH } from "./handler.ts";

export function protectedResourceMetadata(origin: string) {
  return {
    resource: `${origin}${MCP_PATH}`,
    authorization_servers: [origin],
    scopes_supported: [...API_KEY_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Claims service MCP server",
    resource_documentation: `${origin}/llms.txt`,
  };
}

export function protectedResourceMetadataResponse(request: Request): Response {
  return Response.json(protectedResourceMetadata(publicOrigin(request)), {
    headers: { "Cache-Control": "public, max-age=300", ...PUBLIC_DOCUMENT_HEADERS },
  });
}

export function authorizationServerMetadataResponse(request: Request): Response {
  return Response.json(authorizationServerMetadata(publicOrigin(request)), {
    headers: { "Cache-Control": "public, max-age=300", ...PUBLIC_DOCUMENT_HEADERS },
  });
}
