"use client";
import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { ClientForm } from "../_components/client-form.tsx";
import { changedField, FieldError, FormError, invalidProps } from "../_components/form-bits.tsx";
import { toApiError, withoutField, type ApiError } from "../_lib/api-error.ts";
import { useTRPC } from "../_lib/trpc.tsx";
import ui from "../_components/ui.module.css";

export function ForgotPasswordForm() {
  const trpc = useTRPC();
  const id = useId();
  const [error, setError] = useState<ApiError | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const request = useMutation(trpc.account.requestPasswordReset.mutationOptions());

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "");
    setError(null);
    try {
      await request.mutateAsync({ email });
      setSentTo(email.trim());
    } catch (err) {
      const apiError = toApiError(err);
      setError(apiError.fields.email ? { ...apiError, fields: { email: "Enter a valid email address, like name@example.com." } } : apiError);
    }
  }

  if (sentTo) {
    return (
      <p className={ui["form-success"]} role="status">
        If an account uses {sentTo}, a link to choose a new password is on its way. It works once, within an hour.
      </p>
    );
  }
  return (
    <ClientForm onSubmit={onSubmit} noValidate onChange={(e) => setError((err) => withoutField(err, changedField(e)))}>
      <FormError error={error} fields={["email"]} />
      <div className={ui.field}>
        <label htmlFor={`${id}-email`}>Email</label>
        <input id={`${id}-email`} name="email" type="email" className={ui.input} autoComplete="email" required {...invalidProps(error, "email", `${id}-email`)} />
        <FieldError error={error} field="email" id={`${id}-email`} />
      </div>
      <button type="submit" className={`${ui.button} ${ui["button--block"]}`} disabled={request.isPending}>
        {request.isPending ? "Sending…" : "Send me a link"}
      </button>
    </ClientForm>
  );
}
