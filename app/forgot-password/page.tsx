// "Forgot password?": asks for a reset link by mail (account.requestPasswordReset, the procedure behind
// POST /api/v1/auth/password-reset). The answer is the same whether or not the address is known.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { ForgotPasswordForm } from "./forgot-password-form.tsx";
import authStyles from "../signin/auth.module.css";
import ui from "../_components/ui.module.css";

export const metadata: Metadata = { title: "Forgot password" };

export default function ForgotPasswordPage() {
  return (
    <div className={authStyles["auth-page"]}>
      <div className={ui.card}>
        <h1>Forgot your password?</h1>
        <p className={ui.muted}>Enter your account's email address and we will mail you a link to choose a new password.</p>
        <ForgotPasswordForm />
      </div>
      <p style={{ textAlign: "center", marginTop: "1rem" }}>
        Remembered it? <Link href="/signin">Sign in</Link>
      </p>
    </div>
  );
}
