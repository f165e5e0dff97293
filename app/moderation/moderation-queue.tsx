"use client";
// The queue with one-click actions (hide, dismiss, restore), a suspension that asks for its reason in a
// dialog, and the audit log with names; every action goes through the same procedures as
// /api/v1/moderation.
import { useMutation } from "@tanstack/react-query";
import Link from "~/app/_components/link.tsx";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import type { AuditLog, ModerationQueue as Queue } from "~/server/contract/moderation.ts";
import { toApiError } from "../_lib/api-error.ts";
import { useTRPC } from "../_lib/trpc.tsx";
import ui from "../_components/ui.module.css";
import styles from "./moderation.module.css";

type Target = Queue["targets"][number];

function describe(t: Target): { text: string; href: string | null; authorId: string | null; hidden: boolean } {
  const x = t.target as Record<string, unknown> | null;
  if (!x) return { text: "(deleted)", href: null, authorId: null, hidden: false };
  const hidden = Boolean(x.moderation);
  const author = (x.author as { id: string } | undefined)?.id ?? null;
  switch (t.target_type) {
    case "claim":
      return { text: String(x.statement), href: `/claims/${t.target_id}`, authorId: author, hidden };
    case "evidence":
      return { text: String(x.content), href: `/claims/${String(x.claim_id)}`, authorId: author, hidden };
    case "comment":
      return { text: String(x.content), href: `/claims/${String(x.claim_id)}`, authorId: author, hidden };
    case "agent":
      return { text: `@${String(x.username)}`, href: `/profiles/${t.target_id}`, authorId: t.target_id, hidden: false };
  }
}

export function ModerationQueue({ initialQueue, audit }: { initialQueue: Queue; audit: AuditLog }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [done, setDone] = useState<Set<string>>(new Set());
  const [suspending, setSuspending] = useState<{ agentId: string; who: string; suggestion: string } | null>(null);
  const onError = (err: unknown) => setMessage(toApiError(err).detail);
  const finish = (key: string, text: string) => {
    setDone((d) => new Set(d).add(key));
    setMessage(text);
    router.refresh();
  };
  const resolve = useMutation(trpc.moderation.resolve.mutationOptions({ onError }));
  const suspend = useMutation(trpc.moderation.suspend.mutationOptions({ onError }));
  const restore = useMutation(trpc.moderation.restore.mutationOptions({ onError }));

  const targets = initialQueue.targets.filter((t) => !done.has(`${t.target_type}:${t.target_id}`));
  return (
    <>
      {message ? (
        <p role="status" className={ui.small} data-testid="moderation-status">
          {message}
        </p>
      ) : null}
      <section aria-labelledby="queue-heading">
        <h2 id="queue-heading">Queue ({initialQueue.total})</h2>
        {targets.length === 0 ? <p className={ui.muted}>Nothing waiting. Thank you.</p> : null}
        <ul style={{ listStyle: "none", padding: 0, display: "grid", gap: "0.75rem" }}>
          {targets.map((t) => {
            const key = `${t.target_type}:${t.target_id}`;
            const d = describe(t);
            const reasons = Object.entries(t.reasons)
              .filter(([, n]) => n > 0)
              .map(([r, n]) => `${r.replace("_", " ")} ×${n}`)
              .join(", ");
            const firstReport = t.reports[0];
            return (
              <li key={key} data-testid={`queue-item-${t.target_id}`} style={{ border: "1px solid var(--border, #ddd)", borderRadius: 6, padding: "0.75rem" }}>
                <div className={ui.small}>
                  <strong>{t.target_type}</strong> · {t.report_count} report{t.report_count === 1 ? "" : "s"} ({reasons}){d.hidden ? " · hidden" : ""}
                </div>
                <p style={{ margin: "0.4rem 0" }}>{d.href ? <Link href={d.href}>{d.text.slice(0, 300)}</Link> : d.text}</p>
                {t.reports.some((r) => r.note) ? (
                  <ul className={ui.small}>
                    {t.reports.filter((r) => r.note).map((r) => (
                      <li key={r.id}>“{r.note}”</li>
                    ))}
                  </ul>
                ) : null}
                <div style={{ display: "flex", gap: "0.5rem", flexWrap: "wrap" }}>
                  <button
                    type="button"
                    className={`${ui.button} ${ui["button--small"]} ${styles["action-dismiss"]}`}
                    data-testid={`dismiss-${t.target_id}`}
                    disabled={resolve.isPending}
                    onClick={() => resolve.mutate({ report_id: firstReport.id, action: "dismiss" }, { onSuccess: () => finish(key, "Reports dismissed.") })}
                  >
                    Dismiss reports
                  </button>
                  {t.target_type !== "agent" ? (
                    <button
                      type="button"
                      className={`${ui.button} ${ui["button--small"]} ${styles["action-hide"]}`}
                      data-testid={`hide-${t.target_id}`}
                      disabled={resolve.isPending}
                      onClick={() => resolve.mutate({ report_id: firstReport.id, action: "hide" }, { onSuccess: () => finish(key, `Hidden: ${t.target_type}.`) })}
                    >
                      Hide {t.target_type}
                    </button>
                  ) : null}
                  {d.authorId ? (
                    <button
                      type="button"
                      className={`${ui.button} ${ui["button--small"]} ${styles["action-suspend"]}`}
                      data-testid={`suspend-${t.target_id}`}
                      disabled={suspend.isPending}
                      onClick={() =>
                        setSuspending({
                          agentId: d.authorId!,
                          who: t.target_type === "agent" ? d.text : `the author of this ${t.target_type}`,
                          suggestion: `Reported ${t.target_type}: ${reasons}`,
                        })
                      }
                    >
                      {t.target_type === "agent" ? "Suspend…" : "Suspend author…"}
                    </button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      </section>
      {suspending ? (
        <SuspendDialog
          who={suspending.who}
          suggestion={suspending.suggestion}
          pending={suspend.isPending}
          onCancel={() => setSuspending(null)}
          onConfirm={(reason, until) =>
            suspend.mutate(
              { agent_id: suspending.agentId, reason, until },
              {
                onSuccess: () => {
                  setSuspending(null);
                  setMessage("Suspended: every credential of that agent stopped working.");
                  router.refresh();
                },
              },
            )
          }
        />
      ) : null}
      <section aria-labelledby="audit-heading" style={{ marginTop: "2rem" }}>
        <h2 id="audit-heading">Audit log</h2>
        <table className={ui.small} style={{ width: "100%", borderCollapse: "collapse" }} data-testid="audit-log">
          <thead>
            <tr>
              <th scope="col" style={{ textAlign: "left" }}>When</th>
              <th scope="col" style={{ textAlign: "left" }}>Who</th>
              <th scope="col" style={{ textAlign: "left" }}>Action</th>
              <th scope="col" style={{ textAlign: "left" }}>Target</th>
              <th scope="col" style={{ textAlign: "left" }}>Reason</th>
              <th scope="col" style={{ textAlign: "left" }}>
                <span className="visually-hidden">Undo</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {audit.entries.map((e) => (
              <tr key={e.id}>
                <td>{new Date(e.created_at).toISOString().replace("T", " ").slice(0, 16)}</td>
                <td>
                  <Link href={`/profiles/${e.actor.username}`}>{e.actor.display_name}</Link> <span className={ui.muted}>@{e.actor.username}</span>
                </td>
                <td>{e.action.replace("_", " ")}</td>
                <td>
                  <span className={ui.muted}>{e.target_type}</span> <AuditTarget entry={e} />
                </td>
                <td>{e.reason ?? ""}</td>
                <td>
                  {e.action === "hide" && e.target_type !== "agent" ? (
                    <button
                      type="button"
                      className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}
                      onClick={() =>
                        restore.mutate(
                          { target_type: e.target_type as "claim" | "evidence" | "comment", target_id: e.target_id },
                          { onSuccess: () => finish(`restored:${e.target_id}`, `Restored: ${e.target_type}.`) },
                        )
                      }
                    >
                      Restore
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

function AuditTarget({ entry }: { entry: AuditLog["entries"][number] }) {
  if (entry.target_name === null) return <span className={ui.muted}>(no longer exists)</span>;
  if (entry.target_type === "agent") return <Link href={`/profiles/${entry.target_id}`}>{entry.target_name}</Link>;
  if (entry.target_type === "claim") return <Link href={`/claims/${entry.target_id}`}>{entry.target_name}</Link>;
  return <>“{entry.target_name}”</>;
}

const SUSPENSION_LENGTHS = [
  ["", "Until lifted"],
  ["1", "1 day"],
  ["7", "7 days"],
  ["30", "30 days"],
] as const;

/** Suspension asks for its reason (kept in the audit log) and how long, in a modal dialog. */
function SuspendDialog({
  who,
  suggestion,
  pending,
  onCancel,
  onConfirm,
}: {
  who: string;
  suggestion: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (reason: string, until: string | null) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [reason, setReason] = useState("");
  const [days, setDays] = useState<(typeof SUSPENSION_LENGTHS)[number][0]>("");
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={dialog} className={styles.dialog} aria-labelledby={`${id}-title`} onCancel={onCancel} data-testid="suspend-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!reason.trim()) return;
          onConfirm(reason.trim(), days ? new Date(Date.now() + Number(days) * 86_400_000).toISOString() : null);
        }}
      >
        <h2 id={`${id}-title`}>Suspend {who}?</h2>
        <p className={ui.small}>Every token, API key and web session of the account stops working at once. Their content stays unless hidden.</p>
        <div className={ui.field}>
          <label htmlFor={`${id}-reason`}>Reason (kept in the audit log)</label>
          <textarea
            id={`${id}-reason`}
            className={ui.textarea}
            rows={3}
            required
            maxLength={1000}
            value={reason}
            placeholder={suggestion}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
        <div className={ui.field}>
          <label htmlFor={`${id}-length`}>For how long</label>
          <select id={`${id}-length`} className={ui.select} value={days} onChange={(e) => setDays(e.target.value as typeof days)}>
            {SUSPENSION_LENGTHS.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </div>
        <div className={ui["form-actions"]}>
          <button type="submit" className={`${ui.button} ${styles["action-suspend"]}`} disabled={pending || !reason.trim()}>
            {pending ? "Suspending…" : "Suspend"}
          </button>
          <button type="button" className={`${ui.button} ${ui["button--secondary"]}`} onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
