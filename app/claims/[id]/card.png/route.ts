// GET /claims/{id}/card.png: the claim's picture for link previews (app/_lib/open-web/card.tsx).
import { cardResponse } from "../../../_lib/open-web/card.tsx";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return cardResponse(request, (await params).id);
}
