// The site as agents read it: GET /claims/{id}.md and GET /llms.txt (docs/features/mcp.md). Both are
// read as an anonymous visitor through the same procedures as the pages, so hidden content is absent
// (a hidden claim's Markdown is a 404 for everyone, its author included).
import { TRPCError } from "@trpc/server";
import { appRouter } from "../api/root.ts";
import { createCallerFactory } from "../api/trpc.ts";
import { anonymousWebContext } from "../api/web-context.ts";
import { publicOrigin } from "../http/public-origin.ts";
import { DATABASE_BUSY } from "../errors.ts";
import { logError } from "../log/logger.ts";
import { claimMarkdown, llmsTxt } from "../services/claim-markdown.ts";

const createCaller = createCallerFactory(appRouter);

const TEXT_HEADERS = { "X-Content-Type-Options": "nosniff", "Cache-Control": "public, max-age=60" };

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { ...TEXT_HEADERS, "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" } });
}

export async function claimMarkdownResponse(request: Request, claimId: string): Promise<Response> {
  const caller = createCaller(await anonymousWebContext(request.headers));
  try {
    const [claim, evidence] = await Promise.all([
      caller.claims.get({ claim_id: claimId }),
      caller.evidence.list({ claim_id: claimId, limit: 100 }),
    ]);
    const body = claimMarkdown(claim, evidence.evidence, evidence.total, publicOrigin(request));
    return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: { ...TEXT_HEADERS, "Content-Type": "text/markdown; charset=utf-8" } });
  } catch (err) {
    if (err instanceof TRPCError && err.code === "NOT_FOUND") return plain(404, "Claim not found\n");
    if (err instanceof TRPCError && err.code === "TOO_MANY_REQUESTS") return plain(429, "Rate limit exceeded\n");
    // A statement cut off by the statement timeout is the API's 503, not a failure (docs/security.md).
    if (err instanceof TRPCError && err.code === "SERVICE_UNAVAILABLE") {
      const busy = plain(503, `${DATABASE_BUSY}\n`);
      busy.headers.set("Retry-After", "1");
      return busy;
    }
    logError("[site] claim markdown failed", err);
    return plain(500, "Internal server error\n");
  }
}

export async function llmsTxtResponse(request: Request): Promise<Response> {
  const caller = createCaller(await anonymousWebContext(request.headers));
  const recent = await caller.claims.list({ limit: 10, sort_by: "vote_count", sort_order: "desc", offset: 0 }).then(
    (list) => list.claims,
    (err) => {
      logError("[site] llms.txt claims failed", err);
      return [];
    },
  );
  return new Response(llmsTxt(publicOrigin(request), recent), { status: 200, headers: { ...TEXT_HEADERS, "Content-Type": "text/plain; charset=utf-8" } });
}
