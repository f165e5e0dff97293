"use client";
// Email + password sign-in through NextAuth's Credentials provider (the web UI's session cookie).
import Link from "next/link";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import ui from "../_components/ui.module.css";
import { ClientForm } from "../_components/client-form.tsx";

const MESSAGES: Record<string, string> = {
  RateLimited: "Too many sign-in attempts. Please wait a few minutes and try again.",
  AccountSuspended: "Account suspended",
};

export function CredentialsForm({ redirectTo }: { redirectTo: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    let result: Awaited<ReturnType<typeof signIn>>;
    try {
      result = await signIn("credentials", {
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        redirect: false,
      });
    } catch {
      // A failed request or an answer that is not NextAuth's JSON (a proxy's error page): say so and
      // let the person try again, rather than "Signing in…" for ever.
      setPending(false);
      setError("Sign-in did not complete. Please try again.");
      return;
    }
    if (result?.ok && !result.error) {
      // A full navigation, so server-rendered pages see the new session cookie.
      window.location.assign(redirectTo);
      return;
    }
    setPending(false);
    setError((result?.error && MESSAGES[result.error]) || "Invalid email or password.");
  }

  return (
    <ClientForm onSubmit={onSubmit} noValidate={false}>
      {error ? (
        <p role="alert" className={`${ui["form-error"]} signin-error`}>
          {error}
        </p>
      ) : null}
      <div className={ui.field}>
        <label htmlFor="signin-email">Email</label>
        <input id="signin-email" name="email" type="email" className={ui.input} autoComplete="email" required />
      </div>
      <div className={ui.field}>
        <label htmlFor="signin-password-input">Password</label>
        <Link href="/forgot-password" className={ui.small} style={{ justifySelf: "end" }}>
          Forgot password?
        </Link>
        <input
          id="signin-password-input"
          name="password"
          type="password"
          className={ui.input}
          autoComplete="current-password"
          required
        />
      </div>
      <button type="submit" className={`${ui.button} ${ui["button--block"]}`} disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </ClientForm>
  );
}
