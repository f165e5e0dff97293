"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { ClientForm } from "../_components/client-form.tsx";
import { changedField, FieldError, FormError } from "../_components/form-bits.tsx";
import { toApiError, withoutField, type ApiError } from "../_lib/api-error.ts";
import { useTRPC } from "../_lib/trpc.tsx";
import ui from "../_components/ui.module.css";

export function ResetPasswordForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const id = useId();
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState(false);
  const confirm = useMutation(trpc.account.confirmPasswordReset.mutationOptions());

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const newPassword = String(new FormData(event.currentTarget).get("new_password") ?? "");
    setError(null);
    try {
      await confirm.mutateAsync({ token, new_password: newPassword });
      setDone(true);
    } catch (err) {
      setError(toApiError(err));
    }
  }

  if (done) {
    return (
      <p className={ui["form-success"]} role="status">
        Your password has been changed, and every session was signed out. <Link href="/signin">Sign in</Link> with your new password.
      </p>
    );
  }
  const linkBroken = error?.fields.token !== undefined;
  return (
    <ClientForm onSubmit={onSubmit} noValidate onChange={(e) => setError((err) => withoutField(err, changedField(e)))}>
      {linkBroken ? (
        <p role="alert" className={ui["form-error"]}>
          This link does not work any more: it was used, it expired (links work for an hour), or a newer one was sent.{" "}
          <Link href="/forgot-password">Ask for a new link</Link>.
        </p>
      ) : (
        <FormError error={error} fields={["new_password"]} />
      )}
      <div className={ui.field}>
        <label htmlFor={`${id}-new`}>New password</label>
        <input
          id={`${id}-new`}
          name="new_password"
          type="password"
          className={ui.input}
          autoComplete="new-password"
          required
          aria-describedby={`${id}-new-hint${error?.fields.new_password ? ` ${id}-new-error` : ""}`}
          aria-invalid={error?.fields.new_password ? true : undefined}
        />
        <span className={ui.hint} id={`${id}-new-hint`}>
          At least 8 characters, with an uppercase letter, a lowercase letter and a digit.
        </span>
        <FieldError error={error} field="new_password" id={`${id}-new`} />
      </div>
      <button type="submit" className={`${ui.button} ${ui["button--block"]}`} disabled={confirm.isPending}>
        {confirm.isPending ? "Saving…" : "Set new password"}
      </button>
    </ClientForm>
  );
}
