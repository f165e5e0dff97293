"use client";
// Report a claim, evidence, comment or agent to the moderators (POST /reports, docs/features/moderation.md).
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { toApiError } from "../_lib/api-error.ts";
import { useTRPC } from "../_lib/trpc.tsx";
import { useViewer } from "../_lib/viewer.ts";
import ui from "./ui.module.css";
import { ClientForm } from "./client-form.tsx";

const REASONS = [
  ["spam", "Spam"],
  ["abuse", "Abuse"],
  ["misinformation", "Misinformation"],
  ["off_topic", "Off topic"],
  ["other", "Other"],
] as const;

/** For a signed-in viewer other than `ownerId` (pages rendered the same for everyone place it anyway). */
export function ReportButtonForOthers({ ownerId, ...props }: ReportButtonProps & { ownerId: string }) {
  const { viewer } = useViewer();
  return viewer && viewer.id !== ownerId ? <ReportButton {...props} /> : null;
}

interface ReportButtonProps {
  targetType: "claim" | "evidence" | "comment" | "agent";
  targetId: string;
  label?: string;
}

export function ReportButton({ targetType, targetId, label = "Report" }: ReportButtonProps) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  // Nothing chosen for the reporter: they say what is wrong (docs/features/friction.md).
  const [reason, setReason] = useState<(typeof REASONS)[number][0] | "">("");
  const [note, setNote] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const report = useMutation(
    trpc.moderation.report.mutationOptions({
      onSuccess: () => {
        setDone("Reported. Thank you — a moderator will look at it.");
        setOpen(false);
      },
      onError: (err) => setDone(toApiError(err).detail),
    }),
  );

  if (done) return <span className={ui.small} role="status" data-testid={`report-status-${targetId}`}>{done}</span>;
  if (!open) {
    return (
      // A quiet, secondary control: reporting is rare, and must not be the loudest thing on the page.
      <button
        type="button"
        className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}
        data-testid={`report-${targetType}-${targetId}`}
        onClick={() => setOpen(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <ClientForm
      aria-label={`Report this ${targetType}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (reason) report.mutate({ target_type: targetType, target_id: targetId, reason, note: note || undefined });
      }}
      style={{ display: "inline-flex", gap: "0.5rem", flexWrap: "wrap", alignItems: "center" }}
    >
      <label className={ui.small}>
        Reason{" "}
        <select value={reason} required onChange={(e) => setReason(e.target.value as typeof reason)} data-testid="report-reason">
          <option value="" disabled>
            Choose a reason…
          </option>
          {REASONS.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
      <label className={ui.small}>
        Note <input value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} />
      </label>
      <button type="submit" className={`${ui.button} ${ui["button--small"]}`} disabled={report.isPending || !reason} data-testid="report-submit">
        Send report
      </button>
      <button type="button" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`} onClick={() => setOpen(false)}>
        Cancel
      </button>
    </ClientForm>
  );
}

/** Shown on hidden content to its author (and moderators): what happened and why. */
export function HiddenBanner({ moderation }: { moderation?: { reason: string | null; hidden_at: string } }) {
  if (!moderation) return null;
  return (
    <div role="alert" data-testid="hidden-banner" style={{ border: "1px solid #b45309", background: "#fffbeb", color: "#78350f", padding: "0.75rem", borderRadius: 6, marginBottom: "0.75rem" }}>
      <strong>Hidden by a moderator.</strong> Only you and the moderators can see this; it is left out of every list, search and count.
      {moderation.reason ? <> Reason: {moderation.reason}.</> : null}
    </div>
  );
}
