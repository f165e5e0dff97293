// The site as agents read it: GET /claims/{id}.md and GET /llms.txt (docs/features/mcp.md). Both are
// read as an anonymous visitor through the same procedures as the pages, so hidden content is absent
// (a hidden claim's Markdown is a 404 for everyone, its author included). One of the doors
// (docs/architecture.md#the-door): their procedure calls are charged to the client's API budget, as the
// same calls over /api/v1 would be, and a refusal is the door's answer, as text.
import { appRouter } from "../api/root.ts";
import { callErrorBody, createCallerFactory } from "../api/trpc.ts";
import { anonymousWebContext } from "../api/web-context.ts";
import { errorAnswer, RATE_LIMITED_BODY, toResponse, type ErrorBody } from "../door/answers.ts";
import { chargeCalls } from "../door/budgets.ts";
import type { Call, DoorMeta } from "../door/calls.ts";
import { publicOrigin } from "../http/public-origin.ts";
import { logError } from "../log/logger.ts";
import type { RateLimitResult } from "../ratelimit/index.ts";
import { claimMarkdown, llmsTxt } from "../services/claim-markdown.ts";

const createCaller = createCallerFactory(appRouter);

const TEXT_HEADERS = { "X-Content-Type-Options": "nosniff", "Cache-Control": "public, max-age=60" };

/** A call of the procedure at `path` with this input, as the door charges it. */
function call(path: string, input: unknown): Call {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: DoorMeta } }>;
  return { meta: procedures[path]?._def.meta, input };
}

/** The door's answer, as text. */
const refused = (body: ErrorBody, limit?: RateLimitResult): Response =>
  toResponse(errorAnswer(body, { text: true, limit, headers: { "X-Content-Type-Options": "nosniff" } }));

const LLMS_CLAIMS = { limit: 10, sort_by: "vote_count", sort_order: "desc", offset: 0 } as const;

export async function claimMarkdownResponse(request: Request, claimId: string): Promise<Response> {
  const ctx = await anonymousWebContext(request.headers);
  const caller = createCaller(ctx);
  const evidenceInput = { claim_id: claimId, limit: 100 };
  const argumentsInput = { claim_id: claimId, sort_by: "impact", limit: 50 } as const;
  const usesInput = { claim_id: claimId, limit: 20 };
  try {
    const charged = await chargeCalls(ctx, [
      call("claims.get", { claim_id: claimId }),
      call("evidence.list", evidenceInput),
      call("arguments.list", argumentsInput),
      call("arguments.argues", usesInput),
    ]);
    if (charged.refused) return refused(RATE_LIMITED_BODY, charged.limit);
    const [claim, evidence, args, uses] = await Promise.all([
      caller.claims.get({ claim_id: claimId }),
      caller.evidence.list(evidenceInput),
      caller.arguments.list(argumentsInput),
      caller.arguments.argues(usesInput),
    ]);
    const body = claimMarkdown({ claim, evidence: evidence.evidence, totalEvidence: evidence.total, args, uses, origin: publicOrigin(request) });
    return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: { ...TEXT_HEADERS, "Content-Type": "text/markdown; charset=utf-8" } });
  } catch (err) {
    const body = callErrorBody(err, { log: "[site] claim markdown failed" });
    // Either read may be the one that finds nothing: the answer names the claim.
    return refused(body.code === "not_found" ? { ...body, detail: "Claim not found" } : body);
  }
}

export async function llmsTxtResponse(request: Request): Promise<Response> {
  const ctx = await anonymousWebContext(request.headers);
  const charged = await chargeCalls(ctx, [call("claims.list", LLMS_CLAIMS)]);
  if (charged.refused) return refused(RATE_LIMITED_BODY, charged.limit);
  const recent = await createCaller(ctx)
    .claims.list(LLMS_CLAIMS)
    .then(
      (list) => list.claims,
      (err) => {
        logError("[site] llms.txt claims failed", err);
        return [];
      },
    );
  return new Response(llmsTxt(publicOrigin(request), recent), { status: 200, headers: { ...TEXT_HEADERS, "Content-Type": "text/plain; charset=utf-8" } });
}
