"use client";
// The inbox's threads and their mark-read buttons (notifications.read / notifications.readAll, the
// procedures of POST /api/v1/notifications/…/read). Every change refetches the list and the header's bell.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "~/app/_components/link.tsx";
import type { z } from "zod";
import type { notificationListSchema, notificationSchema } from "~/server/contract/notifications.ts";
import { EmptyState, RelTime } from "../_components/bits.tsx";
import { GradientValue } from "../_components/gradient.tsx";
import { toApiError } from "../_lib/api-error.ts";
import { plural } from "../_lib/format.ts";
import { useTRPC } from "../_lib/trpc.tsx";
import styles from "./notifications.module.css";
import ui from "../_components/ui.module.css";

type NotificationList = z.output<typeof notificationListSchema>;
type Notification = z.output<typeof notificationSchema>;

/** What happened, and who did it last: "New: 2 votes, 1 comment · last by Ada". */
function reasonsText(n: Notification): string {
  const r = n.reasons;
  const by = n.actor ? n.actor.display_name : null;
  if (n.new_claim && n.source !== "claim") return `New claim by ${by ?? "a deleted account"}`;
  const parts = [
    r.resolved > 0 ? "reached consensus" : null,
    r.outcomes > 0 ? "its check's outcome moved" : null,
    r.votes > 0 ? plural(r.votes, "vote") : null,
    r.evidence > 0 ? plural(r.evidence, "piece of evidence", "pieces of evidence") : null,
    r.comments > 0 ? plural(r.comments, "comment") : null,
    r.arguments > 0 ? plural(r.arguments, "argument") : null,
  ].filter(Boolean);
  if (!parts.length) return "Nothing new since you read it";
  return `New: ${parts.join(", ")}${by && r.resolved === 0 ? ` · last by ${by}` : ""}`;
}

/** The inbox's groups: what brought each thread (docs/features/following.md#topics-and-people). */
const GROUPS: { source: Notification["source"]; title: string }[] = [
  { source: "claim", title: "Claims you follow" },
  { source: "topic", title: "New in topics you follow" },
  { source: "person", title: "New from people you follow" },
];

export function InboxList({ initial, pageSize }: { initial: NotificationList; pageSize: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useQuery({ ...trpc.notifications.list.queryOptions({ limit: pageSize, offset: 0 }), initialData: initial });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.notifications.list.pathKey() });
  const readAll = useMutation(trpc.notifications.readAll.mutationOptions({ onSettled: refresh }));
  const readOne = useMutation(trpc.notifications.read.mutationOptions({ onSettled: refresh }));
  const error = readAll.error ?? readOne.error;

  if (data.total === 0) {
    return (
      <div className={ui.card}>
        <EmptyState title="No notifications yet">
          <p>
            Follow a claim, a topic or a person from its page and you will see here when others vote, bring evidence or comment on
            it, and the new claims of the topics and people you follow. Programs can be called
            instead: see <Link href="/settings/webhooks">webhooks</Link>.
          </p>
        </EmptyState>
      </div>
    );
  }
  return (
    <section className={ui.card} aria-labelledby="inbox-heading">
      <div className={styles.toolbar}>
        <h2 id="inbox-heading" className={ui.card__title} style={{ margin: 0 }}>
          {data.unread_count === 0 ? "All read" : `${plural(data.unread_count, "unread thread")}`}
        </h2>
        <button
          type="button"
          className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}
          disabled={data.unread_count === 0 || readAll.isPending}
          onClick={() => readAll.mutate({})}
        >
          Mark all read
        </button>
      </div>
      {error ? (
        <p className={ui["field-error"]} role="alert">
          {toApiError(error).detail}
        </p>
      ) : null}
      {GROUPS.map(({ source, title }) => {
        const threads = data.notifications.filter((n) => n.source === source);
        if (threads.length === 0) return null;
        return (
          <section key={source} aria-labelledby={`inbox-${source}`} data-testid={`inbox-group-${source}`}>
            <h3 id={`inbox-${source}`} className={ui.note} style={{ margin: "0.75rem 0 0.25rem" }}>
              {title}
            </h3>
      <ul className={styles.threads}>
        {threads.map((n) => (
          <li key={n.id} className={`${styles.thread} ${n.unread ? styles["thread--unread"] : ""}`} data-testid="notification">
            <div className={styles.thread__main}>
              <Link href={`/claims/${n.claim.id}`} className={styles.thread__claim} onClick={() => n.unread && readOne.mutate({ notification_id: n.id })}>
                {n.unread ? <span className="visually-hidden">Unread: </span> : null}
                {n.claim.statement}
              </Link>
              <div className={styles.thread__meta}>
                <span>{reasonsText(n)}</span>
                <GradientValue gradient={n.claim.consensus.gradient ?? n.claim.gradient} consensus={n.claim.consensus} />
                <RelTime iso={n.updated_at} />
              </div>
            </div>
            {n.unread ? (
              <button
                type="button"
                className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}
                aria-label={`Mark read: ${n.claim.statement}`}
                disabled={readOne.isPending}
                onClick={() => readOne.mutate({ notification_id: n.id })}
              >
                Mark read
              </button>
            ) : (
              <span className={ui.note}>Read</span>
            )}
          </li>
        ))}
      </ul>
          </section>
        );
      })}
      {data.total > data.notifications.length ? (
        <p className={ui.note}>
          Showing the {data.notifications.length} most recent of {data.total} threads.
        </p>
      ) : null}
    </section>
  );
}
