"use client";
// Create, list and manage webhook endpoints through the web's tRPC endpoint (webhooks.*, session
// cookie). A secret (on creation and on rotation) is held only in this component's state: shown once.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { z } from "zod";
import type { deliverySchema, webhookSchema } from "~/server/contract/webhooks.ts";
import { changedField, FieldError, FormError, invalidProps } from "../../_components/form-bits.tsx";
import { RelTime } from "../../_components/bits.tsx";
import { toApiError, withoutField, type ApiError } from "../../_lib/api-error.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import { ShownOnce } from "../../_components/shown-once.tsx";
import styles from "./webhooks.module.css";
import ui from "../../_components/ui.module.css";
import { ClientForm } from "../../_components/client-form.tsx";

type Webhook = z.output<typeof webhookSchema>;
type Delivery = z.output<typeof deliverySchema>;
type EventType = Webhook["events"][number];

const FIELDS = ["url", "events", "description"] as const;
const DELIVERY_PAGE = 20;

export function WebhooksManager({ initialWebhooks, eventTypes }: { initialWebhooks: Webhook[]; eventTypes: EventType[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery({ ...trpc.webhooks.list.queryOptions({}), initialData: { webhooks: initialWebhooks } });
  const [secret, setSecret] = useState<{ url: string; secret: string; rotated: boolean } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
  const hooks = list.data.webhooks;

  return (
    <>
      {secret && <SecretPanel {...secret} onDone={() => setSecret(null)} />}
      <CreateWebhookForm
        eventTypes={eventTypes}
        onCreated={(w) => {
          setSecret({ url: w.url, secret: w.secret, rotated: false });
          void refresh();
        }}
      />
      <section className={ui.card} aria-labelledby="webhooks-heading" style={{ marginTop: "1.5rem" }}>
        <h2 id="webhooks-heading" className={ui.card__title}>
          Your endpoints ({hooks.length})
        </h2>
        {hooks.length === 0 ? (
          <p className={ui.muted}>No endpoints yet. Add one above; it receives the events of the claims you follow.</p>
        ) : (
          <ul className={styles.hooks}>
            {hooks.map((w) => (
              <WebhookItem key={w.id} webhook={w} onChanged={refresh} onSecret={(s) => setSecret({ url: w.url, secret: s, rotated: true })} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function SecretPanel({ url, secret, rotated, onDone }: { url: string; secret: string; rotated: boolean; onDone: () => void }) {
  return (
    <ShownOnce
      title={`${rotated ? "New signing secret" : "Endpoint created"} for ${url}`}
      warning={`Copy this signing secret now: it is shown only once. Your receiver verifies every call with it.${rotated ? " The old secret no longer signs anything." : ""}`}
      label="Signing secret"
      what="secret"
      value={secret}
      testId="webhook-secret"
      onDone={onDone}
    />
  );
}

function EventChoices({
  eventTypes,
  chosen,
  onChange,
  legend,
  invalid,
}: {
  eventTypes: EventType[];
  chosen: EventType[];
  onChange: (next: EventType[]) => void;
  legend: string;
  invalid?: object;
}) {
  return (
    <fieldset className={styles.events} {...invalid}>
      <legend>{legend}</legend>
      {eventTypes.map((type) => (
        <label key={type} className={styles.event}>
          <input
            type="checkbox"
            name="events"
            value={type}
            checked={chosen.includes(type)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, type] : chosen.filter((t) => t !== type))}
          />
          <code>{type}</code>
        </label>
      ))}
    </fieldset>
  );
}

function CreateWebhookForm({ eventTypes, onCreated }: { eventTypes: EventType[]; onCreated: (w: Webhook & { secret: string }) => void }) {
  const trpc = useTRPC();
  const id = useId();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<EventType[]>(eventTypes.filter((t) => t !== "ping"));
  const [error, setError] = useState<ApiError | null>(null);
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onMutate: () => setError(null),
      onSuccess: (w) => {
        setUrl("");
        setDescription("");
        onCreated(w);
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
        create.mutate({ url, events, description: description.trim() === "" ? undefined : description });
      }}
    >
      <h2 id={`${id}-title`} className={ui.card__title}>
        Add an endpoint
      </h2>
      <FormError error={error} fields={FIELDS} />
      <div className={ui.field}>
        <label htmlFor={`${id}-url`}>URL</label>
        <input
          id={`${id}-url`}
          name="url"
          type="url"
          className={ui.input}
          value={url}
          maxLength={2000}
          placeholder="https://example.com/claims-hook"
          onChange={(e) => setUrl(e.target.value)}
          {...invalidProps(error, "url", `${id}-url`)}
        />
        <FieldError error={error} field="url" id={`${id}-url`} />
      </div>
      <div className={ui.field}>
        <EventChoices eventTypes={eventTypes} chosen={events} onChange={setEvents} legend="Events" invalid={invalidProps(error, "events", `${id}-events`)} />
        <FieldError error={error} field="events" id={`${id}-events`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-description`}>Description (optional)</label>
        <input
          id={`${id}-description`}
          name="description"
          className={ui.input}
          value={description}
          maxLength={500}
          onChange={(e) => setDescription(e.target.value)}
          {...invalidProps(error, "description", `${id}-description`)}
        />
        <FieldError error={error} field="description" id={`${id}-description`} />
      </div>
      <div className={ui["form-actions"]}>
        <button type="submit" className={ui.button} disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add endpoint"}
        </button>
      </div>
    </ClientForm>
  );
}

function WebhookItem({ webhook, onChanged, onSecret }: { webhook: Webhook; onChanged: () => void; onSecret: (secret: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [notice, setNotice] = useState("");
  const [error, setError] = useState<string | null>(null);
  const fail = (err: unknown) => setError(toApiError(err).detail);
  const refreshDeliveries = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey({ webhook_id: webhook.id }) });

  const ping = useMutation(
    trpc.webhooks.test.mutationOptions({
      onMutate: () => setError(null),
      onSuccess: () => {
        setNotice("Test ping queued.");
        setShowDeliveries(true);
        void refreshDeliveries();
      },
      onError: fail,
    }),
  );
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions({ onSuccess: (w) => onSecret(w.secret), onError: fail }));
  const remove = useMutation(trpc.webhooks.remove.mutationOptions({ onSuccess: onChanged, onError: fail }));
  const enable = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: onChanged, onError: fail }));
  const busy = ping.isPending || rotate.isPending || remove.isPending || enable.isPending;

  return (
    <li className={styles.hook} data-testid="webhook">
      <div className={styles.hook__head}>
        <div className={styles.hook__main}>
          <div className={styles.hook__url}>{webhook.url}</div>
          <div className={styles.hook__meta}>
            <span className={`${ui.badge} ${webhook.status === "active" ? "" : styles.disabled}`}>{webhook.status}</span>
            <span>{webhook.events.join(", ")}</span>
            {webhook.description ? <span>{webhook.description}</span> : null}
            <span>
              added <RelTime iso={webhook.created_at} />
            </span>
          </div>
          {webhook.disabled_reason ? <p className={`${ui.small} ${styles.reason}`}>Disabled: {webhook.disabled_reason}</p> : null}
        </div>
      </div>
      <div className={styles.actions} role="group" aria-label={`Actions for ${webhook.url}`}>
        <button
          type="button"
          className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}
          aria-expanded={showDeliveries}
          onClick={() => setShowDeliveries((v) => !v)}
        >
          {showDeliveries ? "Hide deliveries" : "Deliveries"}
        </button>
        <button type="button" className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`} disabled={busy} onClick={() => ping.mutate({ webhook_id: webhook.id })}>
          Send test ping
        </button>
        <button type="button" className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`} disabled={busy} onClick={() => rotate.mutate({ webhook_id: webhook.id })}>
          Rotate secret
        </button>
        {webhook.status === "disabled" ? (
          <button
            type="button"
            className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}
            disabled={busy}
            onClick={() => enable.mutate({ webhook_id: webhook.id, status: "active" })}
          >
            Re-enable
          </button>
        ) : null}
        {confirmDelete ? (
          <span className={styles.confirm} role="group" aria-label={`Confirm deleting ${webhook.url}`}>
            <span className={ui.small}>Delete this endpoint?</span>
            <button type="button" className={`${ui.button} ${ui["button--danger"]} ${ui["button--small"]}`} disabled={busy} onClick={() => remove.mutate({ webhook_id: webhook.id })}>
              Yes, delete
            </button>
            <button type="button" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`} onClick={() => setConfirmDelete(false)}>
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`} onClick={() => setConfirmDelete(true)}>
            Delete
          </button>
        )}
      </div>
      <p className={ui.small} aria-live="polite">
        {notice}
      </p>
      {error ? (
        <p className={ui["field-error"]} role="alert">
          {error}
        </p>
      ) : null}
      {showDeliveries ? <Deliveries webhookId={webhook.id} onError={fail} /> : null}
    </li>
  );
}

function Deliveries({ webhookId, onError }: { webhookId: string; onError: (err: unknown) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { webhook_id: webhookId, limit: DELIVERY_PAGE, offset: 0 };
  // Pending attempts change on their own: look again while any is pending.
  const { data, isLoading } = useQuery({
    ...trpc.webhooks.deliveries.queryOptions(input),
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.deliveries.some((d) => d.status === "pending") ? 2_000 : false),
  });
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey({ webhook_id: webhookId }) }),
      onError,
    }),
  );
  if (isLoading || !data) return <p className={`${ui.small} ${ui.muted}`}>Loading deliveries…</p>;
  if (data.total === 0) return <p className={`${ui.small} ${ui.muted}`}>No deliveries yet.</p>;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} aria-label="Deliveries">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Attempt</th>
            <th scope="col">Status</th>
            <th scope="col">Response</th>
            <th scope="col">When</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.deliveries.map((d) => (
            <DeliveryRow key={d.id} delivery={d} pending={redeliver.isPending} onRedeliver={() => redeliver.mutate({ webhook_id: webhookId, delivery_id: d.id })} />
          ))}
        </tbody>
      </table>
      {data.total > data.deliveries.length ? (
        <p className={`${ui.small} ${ui.muted}`}>
          The {data.deliveries.length} most recent of {data.total} attempts (all of them: GET /api/v1/webhooks/{webhookId}/deliveries).
        </p>
      ) : null}
    </div>
  );
}

function DeliveryRow({ delivery: d, pending, onRedeliver }: { delivery: Delivery; pending: boolean; onRedeliver: () => void }) {
  return (
    <tr data-testid="delivery">
      <td>
        <code>{d.event_type}</code>
      </td>
      <td>{d.attempt}</td>
      <td className={styles[`status--${d.status}`]}>{d.status}</td>
      <td>
        {d.response_status ?? "—"}
        {d.duration_ms !== null ? <span className={ui.muted}> · {d.duration_ms} ms</span> : null}
        {d.error ? <div className={`${ui.small} ${ui.muted}`}>{d.error}</div> : null}
      </td>
      <td>
        <RelTime iso={d.created_at} />
      </td>
      <td>
        <button type="button" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`} disabled={pending} onClick={onRedeliver}>
          Redeliver
        </button>
      </td>
    </tr>
  );
}
