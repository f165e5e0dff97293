// GET /.well-known/claims-data-key (rewritten here by next.config.mjs: the app folder cannot hold a
// dot-folder route): the public key that verifies the open data's manifests (server/http/open-data.ts).
import { dataKeyResponse } from "~/server/http/open-data.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(): Response {
  return dataKeyResponse();
}
