"use client";
// Create, list and revoke API keys through the web's tRPC endpoint (apiKeys.*, session cookie).
// A new key is held only in this component's state: shown once with a copy button, gone on "Done".
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { ApiKeyOut } from "~/server/contract/api-keys.ts";
import type { ApiKeyScope } from "~/server/domain/scopes.ts";
import { changedField, FieldError, FormError, invalidProps } from "../../_components/form-bits.tsx";
import { toApiError, withoutField, type ApiError } from "../../_lib/api-error.ts";
import { longDate, shortDate } from "../../_lib/format.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import { ShownOnce } from "../../_components/shown-once.tsx";
import styles from "./api-keys.module.css";
import ui from "../../_components/ui.module.css";
import { ClientForm } from "../../_components/client-form.tsx";

const FIELDS = ["name", "scopes", "expires_in_days"] as const;
const EXPIRY_CHOICES = [
  { value: "", label: "Never" },
  { value: "7", label: "In 7 days" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In 1 year" },
];

export function ApiKeysManager({
  initialKeys,
  scopes,
  maxKeys,
}: {
  initialKeys: ApiKeyOut[];
  scopes: { scope: ApiKeyScope; description: string }[];
  maxKeys: number;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery({ ...trpc.apiKeys.list.queryOptions({}), initialData: { api_keys: initialKeys } });
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
  const keys = list.data.api_keys;

  return (
    <>
      {created && <NewKeyPanel created={created} onDone={() => setCreated(null)} />}
      <CreateKeyForm
        scopes={scopes}
        onCreated={(key) => {
          setCreated(key);
          void refresh();
        }}
      />
      <section className={ui.card} aria-labelledby="api-keys-heading" style={{ marginTop: "1.5rem" }}>
        <h2 id="api-keys-heading" className={ui.card__title}>
          Your keys ({keys.length} of {maxKeys})
        </h2>
        {keys.length === 0 ? (
          <p className={ui.muted}>No keys yet. Create one above to let a program act as you.</p>
        ) : (
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <KeyRow key={key.id} apiKey={key} onRevoked={refresh} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

function NewKeyPanel({ created, onDone }: { created: { name: string; key: string }; onDone: () => void }) {
  return (
    <ShownOnce
      title={<>Key “{created.name}” created</>}
      warning="Copy this key now: it is shown only once and cannot be recovered. Store it like a password."
      label="Your new API key"
      what="key"
      value={created.key}
      onDone={onDone}
    />
  );
}

function CreateKeyForm({
  scopes,
  onCreated,
}: {
  scopes: { scope: ApiKeyScope; description: string }[];
  onCreated: (key: { name: string; key: string }) => void;
}) {
  const trpc = useTRPC();
  const id = useId();
  const [name, setName] = useState("");
  const [chosen, setChosen] = useState<ApiKeyScope[]>(["read"]);
  const [expiry, setExpiry] = useState("");
  const [error, setError] = useState<ApiError | null>(null);
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onMutate: () => setError(null),
      onSuccess: (key) => {
        setName("");
        onCreated({ name: key.name, key: key.key });
      },
      onError: (err) => setError(toApiError(err)),
    }),
  );

  return (
    <ClientForm
      className={ui.card}
      noValidate
      aria-labelledby={`${id}-title`}
      onChange={(e) => setError((err) => withoutField(err, changedField(e)))}
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ name, scopes: chosen, expires_in_days: expiry === "" ? undefined : Number(expiry) });
      }}
    >
      <h2 id={`${id}-title`} className={ui.card__title}>
        Create a key
      </h2>
      <FormError error={error} fields={FIELDS} />
      <div className={ui.field}>
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          name="name"
          className={ui.input}
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. research-bot on host 3"
          {...invalidProps(error, "name", `${id}-name`)}
        />
        <FieldError error={error} field="name" id={`${id}-name`} />
      </div>
      <div className={ui.field}>
        <fieldset className={styles.scopes} {...invalidProps(error, "scopes", `${id}-scopes`)}>
          <legend>Scopes</legend>
          {scopes.map(({ scope, description }) => (
            <label key={scope} className={styles.scope}>
              <input
                type="checkbox"
                name="scopes"
                value={scope}
                checked={chosen.includes(scope)}
                onChange={(e) => setChosen((s) => (e.target.checked ? [...s, scope] : s.filter((x) => x !== scope)))}
              />
              <span>
                <strong>{scope}</strong> <span className={styles.scopeDescription}>— {description}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <FieldError error={error} field="scopes" id={`${id}-scopes`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-expiry`}>Expires</label>
        <select id={`${id}-expiry`} name="expires_in_days" className={ui.select} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
          {EXPIRY_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        <FieldError error={error} field="expires_in_days" id={`${id}-expiry`} />
      </div>
      <div className={ui["form-actions"]}>
        <button type="submit" className={ui.button} disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </div>
    </ClientForm>
  );
}

function DateCell({ iso, empty }: { iso: string | null; empty: string }) {
  if (!iso) return <span className={ui.muted}>{empty}</span>;
  return (
    <time dateTime={iso} title={longDate(iso)} suppressHydrationWarning>
      {shortDate(iso)}
    </time>
  );
}

function KeyRow({ apiKey, onRevoked }: { apiKey: ApiKeyOut; onRevoked: () => void }) {
  const trpc = useTRPC();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({ onSuccess: onRevoked, onError: (e) => setError(toApiError(e).detail) }),
  );
  const expired = apiKey.expires_at !== null && Date.parse(apiKey.expires_at) <= Date.now();
  return (
    <tr>
      <td>{apiKey.name}</td>
      <td className={styles.prefix}>{apiKey.prefix}…</td>
      <td>{apiKey.scopes.join(", ")}</td>
      <td>
        <DateCell iso={apiKey.last_used_at} empty="Never" />
      </td>
      <td>
        <DateCell iso={apiKey.expires_at} empty="Never" />
        {expired && <span className={`${ui.badge} ${ui["badge--false"]}`} style={{ marginLeft: "0.4rem" }}>expired</span>}
      </td>
      <td>
        {confirming ? (
          <div className={styles.confirm} role="group" aria-label={`Confirm revoking ${apiKey.name}`}>
            <span className={ui.small}>Revoke “{apiKey.name}”? Programs using it stop working at once.</span>
            <div className={styles.confirmButtons}>
              <button type="button" className={`${ui.button} ${ui["button--danger"]} ${ui["button--small"]}`} disabled={revoke.isPending} onClick={() => revoke.mutate({ key_id: apiKey.id })}>
                {revoke.isPending ? "Revoking…" : "Yes, revoke"}
              </button>
              <button type="button" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`} onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
            {error && (
              <p className={ui["field-error"]} role="alert">
                {error}
              </p>
            )}
          </div>
        ) : (
          <button type="button" className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`} aria-label={`Revoke ${apiKey.name}`} onClick={() => setConfirming(true)}>
            Revoke
          </button>
        )}
      </td>
    </tr>
  );
}
