// GET /oembed?url=<claim page>&format=json (app/_lib/open-web/embed.ts).
import { oembedResponse } from "../_lib/open-web/embed.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export { oembedResponse as GET };
