// Create an account (auth.register, the procedure behind POST /api/v1/auth/register), then sign in
// through NextAuth's credentials provider so the browser gets its session cookie.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { safeRedirectPath } from "~/server/domain/redirect.ts";
import { first, type SearchParams } from "../_lib/search-params.ts";
import { SignUpForm } from "./signup-form.tsx";
import authStyles from "../signin/auth.module.css";
import ui from "../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const redirectTo = safeRedirectPath(first((await searchParams).redirect_to)) ?? "/";
  return (
    <div className={authStyles["auth-page"]}>
      <div className={ui.card}>
        <h1>Create an account</h1>
        <p className={ui.muted}>Free, and all it takes to vote, add evidence and comment.</p>
        <SignUpForm redirectTo={redirectTo} />
      </div>
      <p style={{ textAlign: "center", marginTop: "1rem" }}>
        Already have an account?{" "}
        <Link href={redirectTo !== "/" ? `/signin?redirect_to=${encodeURIComponent(redirectTo)}` : "/signin"}>Sign in</Link>
      </p>
    </div>
  );
}
