// Where a verification mail's link leads (/verify-email?token=…). The address is confirmed by a click,
// not by opening the page: mail scanners that open links must not spend the token.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { first, type SearchParams } from "../_lib/search-params.ts";
import { VerifyEmailButton } from "./verify-email-button.tsx";
import authStyles from "../signin/auth.module.css";
import ui from "../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Verify your email", referrer: "no-referrer" };

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const token = first((await searchParams).token) ?? "";
  return (
    <div className={authStyles["auth-page"]}>
      <div className={ui.card}>
        <h1>Verify your email</h1>
        {token ? (
          <VerifyEmailButton token={token} />
        ) : (
          <p role="alert" className={ui["form-error"]}>
            This page needs the link from the mail. You can ask for a new one in <Link href="/settings">Settings</Link>.
          </p>
        )}
      </div>
    </div>
  );
}
