"use client";
// Email + password sign-in through NextAuth's Credentials provider (the web UI's session cookie).
import Link from "~/app/_components/link.tsx";
import { signIn } from "next-auth/react";
import { useEffect, useState, type FormEvent } from "react";
import ui from "../_components/ui.module.css";
import { ClientForm } from "../_components/client-form.tsx";

/** After this long without an answer the form says why it is still waiting, never a silent "Signing in…". */
const SLOW_SIGN_IN_MS = 10_000;
// `next dev` compiles NextAuth's route and the next page on their first request: tens of seconds on a
// small machine (README, "The first minute"). In production a slow answer is only slow.
const SLOW_TEXT = {
  development: "Still signing in — the development server is compiling this page the first time (up to a minute); later sign-ins are quick.",
  production: "Still signing in — this is taking longer than usual.",
};

const MESSAGES: Record<string, string> = {
  RateLimited: "Too many sign-in attempts. Please wait a few minutes and try again.",
  AccountSuspended: "Account suspended",
};

/** `development`: the server runs `next dev` (the page passes it from config(), the one road to the environment). */
export function CredentialsForm({ redirectTo, development = false }: { redirectTo: string; development?: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [slow, setSlow] = useState(false);
  const [signedIn, setSignedIn] = useState(false);

  // `next dev` compiles NextAuth's route on its first request: ask for it while the person types, so
  // pressing "Sign in" does not wait for the compile (docs/benchmarks/2026-11-28-dev-start.md).
  useEffect(() => {
    if (development) void fetch("/api/auth/csrf").catch(() => undefined);
  }, [development]);

  useEffect(() => {
    if (!pending) {
      setSlow(false);
      return;
    }
    const timer = setTimeout(() => setSlow(true), SLOW_SIGN_IN_MS);
    return () => clearTimeout(timer);
  }, [pending]);

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
      setSignedIn(true);
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
        {signedIn ? "Signed in — opening the page…" : pending ? "Signing in…" : "Sign in"}
      </button>
      {pending && slow ? (
        <p role="status" className={`${ui.small} signin-slow`}>
          {(() => {
            const text = SLOW_TEXT[development ? "development" : "production"];
            return signedIn ? text.replace("Still signing in", "Signed in, still opening the page") : text;
          })()}
        </p>
      ) : null}
    </ClientForm>
  );
}
