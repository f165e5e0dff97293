// NextAuth's endpoints (/api/auth/*): provider callbacks, sessions, CSRF, sign-out. The options live
// in server/nextauth/options.ts and are read on the first request, never while `next build` runs.
// NextAuth reads the whole body itself: it gets the body already read through the one bounded reader.
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { bodyTooLarge, toResponse } from "~/server/door/answers.ts";
import { TOO_LARGE, withBoundedBody } from "~/server/http/body-limit.ts";
import { getAuthOptions } from "~/server/nextauth/options.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

async function handler(request: NextRequest, context: RouteContext): Promise<Response> {
  const bounded = await withBoundedBody(request);
  if (bounded === TOO_LARGE) return toResponse(bodyTooLarge());
  return NextAuth(bounded === request ? request : new NextRequest(bounded), context, getAuthOptions());
}

export { handler as GET, handler as POST };
