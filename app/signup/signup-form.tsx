"use client";
import { useMutation } from "@tanstack/react-query";
import { signIn } from "next-auth/react";
import { useId, useState, type FormEvent } from "react";
import { changedField, FieldError, FormError, invalidProps } from "../_components/form-bits.tsx";
import { toApiError, withoutField, type ApiError } from "../_lib/api-error.ts";
import { useTRPC } from "../_lib/trpc.tsx";
import ui from "../_components/ui.module.css";
import { ClientForm } from "../_components/client-form.tsx";
import { NewPasswordField } from "../_components/form-submit.tsx";

const FIELDS = ["email", "username", "display_name", "password"] as const;

export function SignUpForm({ redirectTo }: { redirectTo: string }) {
  const trpc = useTRPC();
  const id = useId();
  const [error, setError] = useState<ApiError | null>(null);
  const [signInFailed, setSignInFailed] = useState(false);
  const register = useMutation(trpc.auth.register.mutationOptions());

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    const displayName = String(form.get("display_name") ?? "").trim();
    setError(null);
    setSignInFailed(false);
    try {
      await register.mutateAsync({
        email,
        password,
        username: String(form.get("username") ?? ""),
        ...(displayName ? { display_name: displayName } : {}),
        automated: form.get("automated") === "on",
      });
    } catch (err) {
      setError(toApiError(err)); // a taken email address or username shows at its field (api-error.ts)
      return;
    }
    const result = await signIn("credentials", { email, password, redirect: false });
    if (result?.ok && !result.error) {
      // A full navigation, so server-rendered pages see the new session cookie. A sign-up that came
      // from nowhere in particular lands on the first-run welcome.
      window.location.assign(redirectTo === "/" ? "/welcome" : redirectTo);
      return;
    }
    setSignInFailed(true);
  }

  const pending = register.isPending;
  return (
    <ClientForm onSubmit={onSubmit} noValidate onChange={(e) => setError((err) => withoutField(err, changedField(e)))}>
      <FormError error={error} fields={FIELDS} />
      {signInFailed ? (
        <p className={ui["form-error"]} role="alert">
          Your account was created, but signing in failed. <a href="/signin">Sign in</a> with your email and password.
        </p>
      ) : null}
      <div className={ui.field}>
        <label htmlFor={`${id}-email`}>Email</label>
        <input id={`${id}-email`} name="email" type="email" className={ui.input} autoComplete="email" required {...invalidProps(error, "email", `${id}-email`)} />
        <FieldError error={error} field="email" id={`${id}-email`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-username`}>Username</label>
        <input
          id={`${id}-username`}
          name="username"
          className={ui.input}
          autoComplete="username"
          required
          aria-describedby={`${id}-username-hint${error?.fields.username ? ` ${id}-username-error` : ""}`}
          aria-invalid={error?.fields.username ? true : undefined}
        />
        <span className={ui.hint} id={`${id}-username-hint`}>
          3–30 letters, digits or underscores. It cannot be changed later.
        </span>
        <FieldError error={error} field="username" id={`${id}-username`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-display`}>
          Display name <span className={ui.muted}>(optional)</span>
        </label>
        <input id={`${id}-display`} name="display_name" className={ui.input} autoComplete="name" {...invalidProps(error, "display_name", `${id}-display`)} />
        <FieldError error={error} field="display_name" id={`${id}-display`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-automated`}>
          <input id={`${id}-automated`} name="automated" type="checkbox" aria-describedby={`${id}-automated-hint`} /> This account is
          automated (software acting on its own)
        </label>
        <span className={ui.hint} id={`${id}-automated-hint`}>
          Votes of automated accounts are counted apart from people’s.
        </span>
      </div>
      <NewPasswordField error={error} name="password" label="Password" />
      <button type="submit" className={`${ui.button} ${ui["button--block"]}`} disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </button>
    </ClientForm>
  );
}
