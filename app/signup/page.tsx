// Create an account (auth.register, the procedure behind POST /api/v1/auth/register), then sign in
// through NextAuth's credentials provider so the browser gets its session cookie.
import type { Metadata } from "next";
import Link from "next/link";
import { safeRedirectPath } from "~/server/auth/redirect.ts";
import { first, type SearchParams } from "../_lib/search-params.ts";
import { SignUpForm } from "./signup-form.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const redirectTo = safeRedirectPath(first((await searchParams).redirect_to)) ?? "/";
  return (
    <div className="auth-page">
      <div className="card">
        <h1>Create an account</h1>
        <p className="muted">Free, and all it takes to vote, add evidence and comment.</p>
        <SignUpForm redirectTo={redirectTo} />
      </div>
      <p style={{ textAlign: "center", marginTop: "1rem" }}>
        Already have an account?{" "}
        <Link href={redirectTo !== "/" ? `/signin?redirect_to=${encodeURIComponent(redirectTo)}` : "/signin"}>Sign in</Link>
      </p>
    </div>
  );
}
