"use client";
// The forms of /settings, each calling its procedure through the web's tRPC endpoint (account.*, the
// same procedures as /api/v1/auth/...), with the server's message next to the field it names.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useId, useState, type FormEvent } from "react";
import { changedField, FieldError, FormError, invalidProps } from "../_components/form-bits.tsx";
import { ClientForm } from "../_components/client-form.tsx";
import { toApiError, withoutField, type ApiError } from "../_lib/api-error.ts";
import { useTRPC } from "../_lib/trpc.tsx";
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
  const queryClient = useQueryClient();
  const id = useId();
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState(false);
  const update = useMutation(trpc.auth.updateMe.mutationOptions());

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    setSaved(false);
    try {
      await update.mutateAsync({ display_name: String(form.get("display_name") ?? ""), bio: String(form.get("bio") ?? "") });
      await queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
      setSaved(true);
    } catch (err) {
      setError(toApiError(err));
    }
  }

  return (
    <ClientForm onSubmit={onSubmit} noValidate onChange={(e) => setError((err) => withoutField(err, changedField(e)))}>
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

/** What the password rules say, in words a person reads (the API names the field and the rule). */
const PASSWORD_HINT = "At least 8 characters, with an uppercase letter, a lowercase letter and a digit.";

export function PasswordForm() {
  const trpc = useTRPC();
  const id = useId();
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState(false);
  const change = useMutation(trpc.account.changePassword.mutationOptions());

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setError(null);
    setDone(false);
    try {
      await change.mutateAsync({ current_password: String(form.get("current_password") ?? ""), new_password: String(form.get("new_password") ?? "") });
      formElement.reset();
      setDone(true);
    } catch (err) {
      const apiError = toApiError(err);
      setError(apiError.status === 403 ? { ...apiError, fields: { current_password: "The current password is not right." } } : apiError);
    }
  }

  return (
    <ClientForm onSubmit={onSubmit} noValidate onChange={(e) => setError((err) => withoutField(err, changedField(e)))}>
      <FormError error={error} fields={["current_password", "new_password"]} />
      <div className={ui.field}>
        <label htmlFor={`${id}-current`}>Current password</label>
        <input id={`${id}-current`} name="current_password" type="password" className={ui.input} autoComplete="current-password" required {...invalidProps(error, "current_password", `${id}-current`)} />
        <FieldError error={error} field="current_password" id={`${id}-current`} />
      </div>
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
          {PASSWORD_HINT}
        </span>
        <FieldError error={error} field="new_password" id={`${id}-new`} />
      </div>
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
        <span className={`${ui.badge} ${verified ? ui["badge--true"] : ui["badge--neutral"]}`} data-testid="email-status">
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
  const [asking, setAsking] = useState(false);
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
      <p role="alert">Sign out of every browser and end every API login, this one included?</p>
      <div className={ui.row}>
        <button
          type="button"
          className={`${ui.button} ${ui["button--danger"]}`}
          disabled={everywhere.isPending}
          onClick={async () => {
            try {
              await everywhere.mutateAsync({});
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
              const data = await queryClient.fetchQuery({ ...trpc.account.export.queryOptions({}), staleTime: 0 });
              const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
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
  const [error, setError] = useState<ApiError | null>(null);
  const remove = useMutation(trpc.account.delete.mutationOptions());
  const field = hasPassword ? "password" : "confirm";

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    try {
      await remove.mutateAsync({ [field]: String(form.get(field) ?? "") });
      await signOut({ redirect: false });
      window.location.assign("/?account=deleted");
    } catch (err) {
      const apiError = toApiError(err);
      const message = hasPassword ? "The password is not right." : `Type your username, ${username}, exactly.`;
      setError(apiError.status === 403 ? { ...apiError, fields: { [field]: message } } : apiError);
    }
  }

  return (
    <ClientForm onSubmit={onSubmit} noValidate onChange={(e) => setError((err) => withoutField(err, changedField(e)))}>
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
