"use client";
// The statement with its edits (docs/features/edits.md): "edited" and every version once the claim was
// edited, and for its author an "Edit" form while nobody has voted. The page is the same for everyone,
// so the versions and the viewer are read here, in the browser.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toApiError, type ApiError } from "../../_lib/api-error.ts";
import { shortDate } from "../../_lib/format.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import { roleOf, useViewer } from "../../_lib/viewer.ts";
import { ClientForm } from "../../_components/client-form.tsx";
import { FieldError, FormError, invalidProps } from "../../_components/form-bits.tsx";
import ui from "../../_components/ui.module.css";

interface Props {
  claim: { id: string; statement: string; vote_count: number; author: { id: string } };
}

function useHistory(claimId: string) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.edits.claimHistory.queryOptions({ claim_id: claimId }), staleTime: 30_000 });
}

/** The current statement: the newest version the browser knows of, else the page's. */
export function ClaimStatement({ claim }: Props) {
  const history = useHistory(claim.id);
  return <>{history.data?.versions.at(-1)?.statement ?? claim.statement}</>;
}

/** "edited" with the versions, and the author's Edit form. */
export function ClaimEdits({ claim }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const history = useHistory(claim.id);
  const viewer = useViewer();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<ApiError | null>(null);
  const save = useMutation(
    trpc.edits.claim.mutationOptions({
      onSuccess: async () => {
        setEditing(false);
        setError(null);
        await queryClient.invalidateQueries({ queryKey: trpc.edits.claimHistory.queryKey({ claim_id: claim.id }) });
      },
      onError: (err) => setError(toApiError(err)),
    }),
  );
  const versions = history.data?.versions ?? [];
  const current = versions.at(-1)?.statement ?? claim.statement;
  const mayEdit = roleOf(viewer, claim.author.id) === "author" && claim.vote_count === 0;

  return (
    <div className={ui.small}>
      {versions.length > 1 ? (
        <details data-testid="claim-versions">
          <summary>
            Edited {history.data?.edited_at ? shortDate(history.data.edited_at) : ""} · {versions.length} versions
          </summary>
          <ol>
            {versions.map((v) => (
              <li key={v.version}>
                <span className={ui.muted}>{shortDate(v.created_at)}: </span>
                {v.statement}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {mayEdit && !editing ? (
        <button
          type="button"
          className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}
          onClick={() => {
            setDraft(current);
            setError(null);
            setEditing(true);
          }}
        >
          Edit
        </button>
      ) : null}
      {editing ? (
        <ClientForm
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ claim_id: claim.id, statement: draft });
          }}
        >
          <label className={ui.label} htmlFor="edit-statement">
            Statement <span className={ui.note}>(you can edit it until the first vote; every version stays visible)</span>
          </label>
          <textarea
            id="edit-statement"
            name="statement"
            className={ui.textarea}
            rows={3}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            {...invalidProps(error, "statement", "edit-statement")}
          />
          <FieldError error={error} field="statement" id="edit-statement" />
          <FormError error={error} fields={["statement"]} />
          <div className={ui.row} style={{ marginTop: "0.5rem" }}>
            <button type="submit" className={`${ui.button} ${ui["button--small"]}`} disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save"}
            </button>
            <button type="button" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`} onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </ClientForm>
      ) : null}
    </div>
  );
}
