"use client";
// The mail digest of what you follow (digest.get / digest.set, docs/features/digest.md): off, daily or
// weekly, for a verified address.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { DigestFrequency } from "~/server/contract/digest.ts";
import { toApiError } from "../_lib/api-error.ts";
import { shortDate } from "../_lib/format.ts";
import { useTRPC } from "../_lib/trpc.tsx";
import ui from "../_components/ui.module.css";

const CHOICES: { value: DigestFrequency; label: string }[] = [
  { value: "off", label: "Off" },
  { value: "daily", label: "Daily" },
  { value: "weekly", label: "Weekly" },
];

export function DigestForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.digest.get.queryOptions({}));
  const [saved, setSaved] = useState(false);
  const save = useMutation(
    trpc.digest.set.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.digest.get.queryKey({}), data);
        setSaved(true);
      },
    }),
  );
  if (!settings.data) return <p className={ui.note}>Loading…</p>;
  const current = settings.data.frequency;
  return (
    <>
      <p>
        A mail with what happened on the claims, topics and people you follow: new votes, evidence, comments and arguments, and new
        claims. Nothing new, no mail. Every digest has a one-click unsubscribe.
      </p>
      {!settings.data.email_verified ? <p className={ui.note}>Verify your email address above to get a digest.</p> : null}
      <div className={ui.segmented} role="group" aria-label="Digest">
        {CHOICES.map((c) => (
          <button
            key={c.value}
            type="button"
            aria-pressed={c.value === current}
            disabled={save.isPending || (c.value !== "off" && !settings.data.email_verified)}
            onClick={() => {
              setSaved(false);
              save.mutate({ frequency: c.value });
            }}
          >
            {c.label}
          </button>
        ))}
      </div>
      {save.error ? (
        <p className={ui["field-error"]} role="alert">
          {toApiError(save.error).detail}
        </p>
      ) : null}
      {saved ? (
        <p className={ui["form-success"]} role="status">
          {current === "off" ? "No digest will be mailed." : `Saved: a ${current} digest${settings.data.last_sent_at ? `, counting from ${shortDate(settings.data.last_sent_at)}` : ""}.`}
        </p>
      ) : null}
    </>
  );
}
