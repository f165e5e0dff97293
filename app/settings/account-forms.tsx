"use client";
// The forms of /settings, each calling its procedure through the web's tRPC endpoint (account.*, the
// same procedures as /api/v1/auth/...), with the server's message next to the field it names.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useId, useRef, useState } from "react";
import { refreshViewer } from "../_lib/viewer.ts";
import { FieldError, FormError, invalidProps } from "../_components/form-bits.tsx";
import { ClientForm } from "../_components/client-form.tsx";
import { NewPasswordField, useFormSubmit } from "../_components/form-submit.tsx";
import { toApiError, type ApiError } from "../_lib/api-error.ts";
import { deletionConfirmationSentence } from "../_lib/human-errors.ts";
import { useTRPC } from "../_lib/trpc.tsx";
import type { AccountExport } from "~/server/contract/accounts.ts";
import ui from "../_components/ui.module.css";

function Success({ children }: { children: React.ReactNode }) {
  return (
    <p className={ui["form-success"]} role="status">
      {children}
    </p>
  );
}

export function ProfileForm({ displayName, bio, bioMax }: { displayName: string; bio: string; bioMax: number }) {
  const trpc = useTRPC();
  const id = useId();
  const update = useMutation(trpc.auth.updateMe.mutationOptions());
  const { error, done: saved, formProps } = useFormSubmit(async (form) => {
    await update.mutateAsync({ display_name: String(form.get("display_name") ?? ""), bio: String(form.get("bio") ?? "") });
    await refreshViewer();
  });

  return (
    <ClientForm {...formProps}>
      <FormError error={error} fields={["display_name", "bio"]} />
      <div className={ui.field}>
        <label htmlFor={`${id}-name`}>Display name</label>
        <input id={`${id}-name`} name="display_name" className={ui.input} defaultValue={displayName} maxLength={100} required {...invalidProps(error, "display_name", `${id}-name`)} />
        <FieldError error={error} field="display_name" id={`${id}-name`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-bio`}>
          Bio <span className={ui.muted}>(optional, up to {bioMax} characters)</span>
        </label>
        <textarea id={`${id}-bio`} name="bio" className={ui.textarea} rows={3} defaultValue={bio} maxLength={bioMax} {...invalidProps(error, "bio", `${id}-bio`)} />
        <FieldError error={error} field="bio" id={`${id}-bio`} />
      </div>
      <div className={ui["form-actions"]}>
        <button type="submit" className={ui.button} disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Save profile"}
        </button>
      </div>
      {saved ? <Success>Profile saved.</Success> : null}
    </ClientForm>
  );
}

export function PasswordForm() {
  const trpc = useTRPC();
  const id = useId();
  const change = useMutation(trpc.account.changePassword.mutationOptions());
  const { error, done, formProps } = useFormSubmit(
    async (fields, form) => {
      await change.mutateAsync({ current_password: String(fields.get("current_password") ?? ""), new_password: String(fields.get("new_password") ?? "") });
      form.reset();
    },
    (apiError) => (apiError.code === "confirmation_failed" ? { ...apiError, fields: { current_password: "The current password is not right." } } : apiError),
  );

  return (
    <ClientForm {...formProps}>
      <FormError error={error} fields={["current_password", "new_password"]} />
      <div className={ui.field}>
        <label htmlFor={`${id}-current`}>Current password</label>
        <input id={`${id}-current`} name="current_password" type="password" className={ui.input} autoComplete="current-password" required {...invalidProps(error, "current_password", `${id}-current`)} />
        <FieldError error={error} field="current_password" id={`${id}-current`} />
      </div>
      <NewPasswordField error={error} />
      <div className={ui["form-actions"]}>
        <button type="submit" className={ui.button} disabled={change.isPending}>
          {change.isPending ? "Changing…" : "Change password"}
        </button>
      </div>
      {done ? <Success>Password changed. You stay signed in here; every other session was signed out.</Success> : null}
    </ClientForm>
  );
}

export function EmailSection({ email, verified }: { email: string | null; verified: boolean }) {
  const trpc = useTRPC();
  const [error, setError] = useState<ApiError | null>(null);
  const [sent, setSent] = useState(false);
  const request = useMutation(trpc.account.requestEmailVerification.mutationOptions());
  if (!email) return <p>Your account has no email address (it signs in through a provider that gives none).</p>;
  return (
    <div className={ui.stack}>
      <p>
        {email}{" "}
        <span className={`${ui.badge} ${verified ? ui["badge--true"] : ui["badge--neutral"]}`} data-testid="email-status" style={{ textTransform: "none" }}>
          {verified ? "Verified" : "Not verified"}
        </span>
      </p>
      {verified ? null : (
        <>
          <p className={ui.muted}>Verifying your address lets you recover your account by mail.</p>
          <div>
            <button
              type="button"
              className={`${ui.button} ${ui["button--secondary"]}`}
              disabled={request.isPending}
              onClick={async () => {
                setError(null);
                setSent(false);
                try {
                  await request.mutateAsync({});
                  setSent(true);
                } catch (err) {
                  setError(toApiError(err));
                }
              }}
            >
              {request.isPending ? "Sending…" : "Send verification link"}
            </button>
          </div>
          {sent ? <Success>We sent a link to {email}. It works once, within 24 hours.</Success> : null}
          <FormError error={error} fields={[]} />
        </>
      )}
    </div>
  );
}

export function SignOutEverywhereButton() {
  const trpc = useTRPC();
  const id = useId();
  const [asking, setAsking] = useState(false);
  const [revokeApiKeys, setRevokeApiKeys] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const everywhere = useMutation(trpc.account.signOutEverywhere.mutationOptions());
  if (!asking) {
    return (
      <button type="button" className={`${ui.button} ${ui["button--secondary"]}`} onClick={() => setAsking(true)}>
        Sign out everywhere
      </button>
    );
  }
  return (
    <div className={ui.stack}>
      <p role="alert">Sign out of every browser, end every API login and disconnect every MCP client, this one included?</p>
      <div className={ui.field}>
        <label htmlFor={`${id}-keys`}>
          <input id={`${id}-keys`} type="checkbox" checked={revokeApiKeys} onChange={(e) => setRevokeApiKeys(e.target.checked)} /> Also
          revoke every API key (programs using one stop working until you give them a new key)
        </label>
      </div>
      <div className={ui.row}>
        <button
          type="button"
          className={`${ui.button} ${ui["button--danger"]}`}
          disabled={everywhere.isPending}
          onClick={async () => {
            try {
              await everywhere.mutateAsync({ revoke_api_keys: revokeApiKeys });
              await signOut({ redirect: false });
              window.location.assign("/signin");
            } catch (err) {
              setError(toApiError(err));
            }
          }}
        >
          {everywhere.isPending ? "Signing out…" : "Yes, sign out everywhere"}
        </button>
        <button type="button" className={`${ui.button} ${ui["button--ghost"]}`} onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
      <FormError error={error} fields={[]} />
    </div>
  );
}

/** Appends every section of a later page of the export to the first page's. */
function joinExportPages(first: AccountExport, next: AccountExport) {
  for (const key of Object.keys(next) as (keyof AccountExport)[]) {
    const into = first[key];
    const rows = next[key];
    if (Array.isArray(into) && Array.isArray(rows)) into.push(...rows);
  }
}

export function ExportButton({ username }: { username: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  return (
    <div className={ui.stack}>
      <div>
        <button
          type="button"
          className={`${ui.button} ${ui["button--secondary"]}`}
          disabled={pending}
          onClick={async () => {
            setPending(true);
            setError(null);
            try {
              // The export comes in pages (docs/features/accounts.md#export): the file joins them.
              let data: AccountExport | null = null;
              let cursor: string | undefined;
              do {
                const page: AccountExport = await queryClient.fetchQuery({ ...trpc.account.export.queryOptions({ cursor }), staleTime: 0 });
                if (data) joinExportPages(data, page);
                else data = page;
                cursor = page.next_cursor ?? undefined;
              } while (cursor);
              const url = URL.createObjectURL(new Blob([JSON.stringify({ ...data, next_cursor: null }, null, 2)], { type: "application/json" }));
              const link = document.createElement("a");
              link.href = url;
              link.download = `claims-export-${username}.json`;
              document.body.append(link);
              link.click();
              link.remove();
              setTimeout(() => URL.revokeObjectURL(url), 10_000);
            } catch (err) {
              setError(toApiError(err));
            } finally {
              setPending(false);
            }
          }}
        >
          {pending ? "Preparing…" : "Download my data"}
        </button>
      </div>
      <FormError error={error} fields={[]} />
    </div>
  );
}

export function DeleteAccountForm({ hasPassword, username }: { hasPassword: boolean; username: string }) {
  const trpc = useTRPC();
  const id = useId();
  const remove = useMutation(trpc.account.delete.mutationOptions());
  const field = hasPassword ? "password" : "confirm";
  // Whether the last try sent the field empty: the refusal then asks for it instead of calling it wrong.
  const sentEmpty = useRef(false);
  const { error, formProps } = useFormSubmit(
    async (form) => {
      const value = String(form.get(field) ?? "");
      sentEmpty.current = value === "";
      await remove.mutateAsync({ [field]: value });
      await signOut({ redirect: false });
      window.location.assign("/?account=deleted");
    },
    (apiError) => {
      const message = deletionConfirmationSentence({ hasPassword, username, empty: sentEmpty.current });
      return apiError.code === "confirmation_failed" ? { ...apiError, fields: { [field]: message } } : apiError;
    },
  );

  return (
    <ClientForm {...formProps}>
      <FormError error={error} fields={[field]} />
      <div className={ui.field}>
        <label htmlFor={`${id}-${field}`}>{hasPassword ? "Your password, to confirm" : `Type your username (${username}) to confirm`}</label>
        <input
          id={`${id}-${field}`}
          name={field}
          type={hasPassword ? "password" : "text"}
          className={ui.input}
          autoComplete={hasPassword ? "current-password" : "off"}
          required
          {...invalidProps(error, field, `${id}-${field}`)}
        />
        <FieldError error={error} field={field} id={`${id}-${field}`} />
      </div>
      <div className={ui["form-actions"]}>
        <button type="submit" className={`${ui.button} ${ui["button--danger"]}`} disabled={remove.isPending}>
          {remove.isPending ? "Deleting…" : "Delete my account"}
        </button>
      </div>
    </ClientForm>
  );
}
