"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "~/app/_components/link.tsx";
import { ClientForm } from "../_components/client-form.tsx";
import { FormError } from "../_components/form-bits.tsx";
import { NewPasswordField, useFormSubmit } from "../_components/form-submit.tsx";
import { useTRPC } from "../_lib/trpc.tsx";
import ui from "../_components/ui.module.css";

export function ResetPasswordForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const confirm = useMutation(trpc.account.confirmPasswordReset.mutationOptions());
  const { error, done, formProps } = useFormSubmit(async (fields) => {
    await confirm.mutateAsync({ token, new_password: String(fields.get("new_password") ?? "") });
  });

  if (done) {
    return (
      <p className={ui["form-success"]} role="status">
        Your password has been changed, and every session was signed out. <Link href="/signin">Sign in</Link> with your new password.
      </p>
    );
  }
  const linkBroken = error?.code === "invalid_link";
  return (
    <ClientForm {...formProps}>
      {linkBroken ? (
        <p role="alert" className={ui["form-error"]}>
          This link does not work any more: it was used, it expired (links work for an hour), or a newer one was sent.{" "}
          <Link href="/forgot-password">Ask for a new link</Link>.
        </p>
      ) : (
        <FormError error={error} fields={["new_password"]} />
      )}
      <NewPasswordField error={error} />
      <button type="submit" className={`${ui.button} ${ui["button--block"]}`} disabled={confirm.isPending}>
        {confirm.isPending ? "Saving…" : "Set new password"}
      </button>
    </ClientForm>
  );
}
