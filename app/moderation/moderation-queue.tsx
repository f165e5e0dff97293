"use client";
// The queue with one-click actions (hide, dismiss, suspend the author or agent, restore) and the audit
// log; every action goes through the same procedures as /api/v1/moderation.
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { AuditLog, ModerationQueue as Queue } from "~/server/contract/moderation.ts";
import { toApiError } from "../_lib/api-error.ts";
import { useTRPC } from "../_lib/trpc.tsx";
import ui from "../_components/ui.module.css";

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
                  {t.target_type !== "agent" ? (
                    <button
                      type="button"
                      className={ui.button}
                      data-testid={`hide-${t.target_id}`}
                      disabled={resolve.isPending}
                      onClick={() => resolve.mutate({ report_id: firstReport.id, action: "hide" }, { onSuccess: () => finish(key, `Hidden: ${t.target_type}.`) })}
                    >
                      Hide
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className={ui.button}
                    data-testid={`dismiss-${t.target_id}`}
                    disabled={resolve.isPending}
                    onClick={() => resolve.mutate({ report_id: firstReport.id, action: "dismiss" }, { onSuccess: () => finish(key, "Reports dismissed.") })}
                  >
                    Dismiss
                  </button>
                  {d.authorId ? (
                    <button
                      type="button"
                      className={ui.button}
                      data-testid={`suspend-${t.target_id}`}
                      disabled={suspend.isPending}
                      onClick={() => {
                        if (!window.confirm(t.target_type === "agent" ? "Suspend this agent?" : "Suspend the author?")) return;
                        suspend.mutate({ agent_id: d.authorId!, reason: `reported ${t.target_type}: ${reasons}` }, { onSuccess: () => setMessage("Suspended: every credential of that agent stopped working.") });
                      }}
                    >
                      {t.target_type === "agent" ? "Suspend" : "Suspend author"}
                    </button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      </section>
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
                <td>@{e.actor.username}</td>
                <td>{e.action.replace("_", " ")}</td>
                <td>
                  {e.target_type} <code>{e.target_id.slice(0, 8)}</code>
                </td>
                <td>{e.reason ?? ""}</td>
                <td>
                  {e.action === "hide" && e.target_type !== "agent" ? (
                    <button
                      type="button"
                      className={ui.button}
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
