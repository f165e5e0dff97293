// POST /consent/{uid}/decision: the consent page's answer (docs/features/mcp.md#oauth). Only the
// signed-in person of this browser (same-origin form, the NextAuth session, the provider's interaction
// cookie) can answer; the browser then goes back into the provider, which redirects to the client
// with a code or with error=access_denied.
import { cookies } from "next/headers";
import { finishConsent } from "~/server/oauth/consent.ts";
import { INTERACTION_COOKIE } from "~/server/oauth/routes.ts";
import { identityFromNextAuthRequest } from "~/server/nextauth/session.ts";
import { publicOrigin } from "~/server/http/public-origin.ts";
import { errorAnswer, errorBodyOf, invalidField, invalidFieldSentence, toResponse } from "~/server/door/answers.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const seeOther = (location: string) => new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
const refused = (code: "forbidden", detail: string) => toResponse(errorAnswer(errorBodyOf(code, detail)));
const expired = () => toResponse(errorAnswer(invalidFieldSentence("uid", "This request has expired; start again from the client")));
const badDecision = () => toResponse(errorAnswer(invalidField("decision", "must be allow or deny", { rule: "enum", options: ["allow", "deny"] })));

export async function POST(request: Request, { params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const origin = publicOrigin(request);
  const sentFrom = request.headers.get("origin");
  if (sentFrom && sentFrom !== origin) return refused("forbidden", "Cross-site form submission refused");
  const identity = await identityFromNextAuthRequest(request.headers);
  if (identity.kind !== "agent") return seeOther(`/signin?redirect_to=${encodeURIComponent(`/consent/${uid}`)}`);
  if ((await cookies()).get(INTERACTION_COOKIE)?.value !== uid) return expired();
  let decision: FormDataEntryValue | null = null;
  try {
    decision = (await request.formData()).get("decision");
  } catch {
    return badDecision();
  }
  if (decision !== "allow" && decision !== "deny") return badDecision();
  const next = await finishConsent({ uid, agentId: identity.agent.id, approve: decision === "allow" });
  if (!next) return expired();
  return seeOther(next);
}
