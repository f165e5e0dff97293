// Where a password-reset mail's link leads (/reset-password?token=…): choose the new password
// (account.confirmPasswordReset, behind POST /api/v1/auth/password-reset/confirm).
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { first, type SearchParams } from "../_lib/search-params.ts";
import { ResetPasswordForm } from "./reset-password-form.tsx";
import authStyles from "../signin/auth.module.css";
import ui from "../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const token = first((await searchParams).token) ?? "";
  return (
    <div className={authStyles["auth-page"]}>
      <div className={ui.card}>
        <h1>Choose a new password</h1>
        {token ? (
          <ResetPasswordForm token={token} />
        ) : (
          <p role="alert" className={ui["form-error"]}>
            This page needs the link from the mail. <Link href="/forgot-password">Ask for a new link</Link>.
          </p>
        )}
      </div>
    </div>
  );
}
