// NextAuth's endpoints (/api/auth/*): provider callbacks, sessions, CSRF, sign-out. The options live
// in server/auth/nextauth.ts and are read on the first request, never while `next build` runs.
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { getAuthOptions } from "~/server/auth/nextauth.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

function handler(request: NextRequest, context: RouteContext): Promise<Response> {
  return NextAuth(request, context, getAuthOptions());
}

export { handler as GET, handler as POST };
