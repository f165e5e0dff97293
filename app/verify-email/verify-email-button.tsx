"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "~/app/_components/link.tsx";
import { useState } from "react";
import { toApiError, type ApiError } from "../_lib/api-error.ts";
import { useTRPC } from "../_lib/trpc.tsx";
import ui from "../_components/ui.module.css";

export function VerifyEmailButton({ token }: { token: string }) {
  const trpc = useTRPC();
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState(false);
  const confirm = useMutation(trpc.account.confirmEmailVerification.mutationOptions());
  if (done) {
    return (
      <p className={ui["form-success"]} role="status">
        Your email address is verified. <Link href="/settings">Back to settings</Link>
      </p>
    );
  }
  return (
    <div className={ui.stack}>
      <p>Confirm that this address belongs to your account.</p>
      {error ? (
        <p role="alert" className={ui["form-error"]}>
          {error.code === "invalid_link"
            ? "This link does not work any more: it was used, it expired (links work for 24 hours), or a newer one was sent. Ask for a new one in Settings."
            : error.detail}
        </p>
      ) : null}
      <button
        type="button"
        className={`${ui.button} ${ui["button--block"]}`}
        disabled={confirm.isPending}
        onClick={async () => {
          setError(null);
          try {
            await confirm.mutateAsync({ token });
            setDone(true);
          } catch (err) {
            setError(toApiError(err));
          }
        }}
      >
        {confirm.isPending ? "Verifying…" : "Verify my email address"}
      </button>
    </div>
  );
}
