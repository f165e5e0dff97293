"use client";
// Bookmark and follow toggles (claims.bookmark/unbookmark, claims.follow/unfollow), the follow's
// notification flags (claims.updateFollow), and reporting the claim. Whether the viewer has bookmarked
// or follows it comes with claims.get for this viewer (the page's render is the same for everyone).
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "~/app/_components/link.tsx";
import { useState } from "react";
import { ReportButton } from "../../_components/report-button.tsx";
import { toApiError } from "../../_lib/api-error.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import { useViewer } from "../../_lib/viewer.ts";
import type { ClaimShown } from "./shown.ts";
import claimStyles from "./claim.module.css";
import ui from "../../_components/ui.module.css";

type FlagName = "notify_on_vote" | "notify_on_evidence" | "notify_on_comment";
const FLAG_LABELS: [FlagName, string][] = [
  ["notify_on_vote", "Notify me about new votes"],
  ["notify_on_evidence", "Notify me about new evidence"],
  ["notify_on_comment", "Notify me about new comments"],
];

export function ClaimActions({ initial }: { initial: ClaimShown }) {
  const claimId = initial.id;
  const trpc = useTRPC();
  const { viewer, status } = useViewer();
  // The same query as the gauge (claim-live.tsx): one request answers both.
  // The page's claim (shown.ts) until the query answers for this viewer.
  const { data } = useQuery(trpc.claims.get.queryOptions({ claim_id: claimId }));
  const isPlaceholderData = data === undefined;
  const claim: ClaimShown = data ?? initial;
  // What the viewer changed here, over what the server last said.
  const [bookmarkedNow, setBookmarked] = useState<boolean | null>(null);
  const [followingNow, setFollowing] = useState<boolean | null>(null);
  const bookmarked = bookmarkedNow ?? claim.is_bookmarked ?? false;
  const following = followingNow ?? claim.is_following ?? false;
  const [error, setError] = useState<string | null>(null);
  const onError = (err: unknown) => setError(toApiError(err).detail);

  const bookmark = useMutation(trpc.claims.bookmark.mutationOptions({ onSuccess: () => setBookmarked(true), onError }));
  const unbookmark = useMutation(trpc.claims.unbookmark.mutationOptions({ onSuccess: () => setBookmarked(false), onError }));
  const [flags, setFlags] = useState<Record<FlagName, boolean> | null>(null);
  const keepFlags = (f: Record<FlagName, boolean>) => setFlags({ notify_on_vote: f.notify_on_vote, notify_on_evidence: f.notify_on_evidence, notify_on_comment: f.notify_on_comment });
  const follow = useMutation(
    trpc.claims.follow.mutationOptions({
      onSuccess: (f) => {
        setFollowing(true);
        keepFlags(f);
      },
      onError,
    }),
  );
  const updateFollow = useMutation(trpc.claims.updateFollow.mutationOptions({ onSuccess: keepFlags, onError }));
  const unfollow = useMutation(
    trpc.claims.unfollow.mutationOptions({
      onSuccess: () => {
        setFollowing(false);
        setFlags(null);
      },
      onError,
    }),
  );

  if (status === "unknown" || (viewer && isPlaceholderData)) return <div className={ui.row} aria-busy="true" style={{ minHeight: "2rem" }} />;
  if (!viewer) {
    return (
      <div className={ui.row}>
        <Link className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`} href={`/signin?redirect_to=${encodeURIComponent(`/claims/${claimId}`)}`}>
          Sign in to bookmark or follow
        </Link>
      </div>
    );
  }
  const bookmarkPending = bookmark.isPending || unbookmark.isPending;
  const followPending = follow.isPending || unfollow.isPending;
  return (
    <div className={ui.row}>
      <button
        type="button"
        className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]} ${bookmarked ? ui["is-active"] : ""}`}
        disabled={bookmarkPending}
        onClick={() => {
          setError(null);
          (bookmarked ? unbookmark : bookmark).mutate({ claim_id: claimId });
        }}
      >
        <span aria-hidden="true">{bookmarked ? "★" : "☆"}</span> {bookmarked ? "Remove bookmark" : "Bookmark"}
      </button>
      <button
        type="button"
        className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]} ${following ? ui["is-active"] : ""}`}
        disabled={followPending}
        onClick={() => {
          setError(null);
          (following ? unfollow : follow).mutate({ claim_id: claimId });
        }}
      >
        <span aria-hidden="true">{following ? "✓" : "+"}</span> {following ? "Unfollow" : "Follow"}
      </button>
      {following ? (
        <details
          className={claimStyles["follow-settings"]}
          onToggle={(e) => {
            // Following again without flags changes nothing and answers the current flags.
            if ((e.currentTarget as HTMLDetailsElement).open && !flags) follow.mutate({ claim_id: claimId });
          }}
        >
          <summary>Notification settings</summary>
          <fieldset disabled={!flags}>
            <legend className="visually-hidden">Notify me about</legend>
            {FLAG_LABELS.map(([name, label]) => (
              <label key={name} className={ui.row}>
                <input
                  type="checkbox"
                  checked={flags?.[name] ?? false}
                  onChange={(e) => {
                    setError(null);
                    const previous = flags;
                    // Shown at once; the server's answer (or an error) settles it.
                    if (previous) setFlags({ ...previous, [name]: e.target.checked });
                    updateFollow.mutate(
                      { claim_id: claimId, [name]: e.target.checked },
                      { onError: () => setFlags(previous) },
                    );
                  }}
                />{" "}
                {label}
              </label>
            ))}
          </fieldset>
        </details>
      ) : null}
      {viewer.id !== claim.author.id && !claim.moderation ? <ReportButton targetType="claim" targetId={claim.id} /> : null}
      <span className="visually-hidden" role="status">
        {bookmarked ? "Bookmarked." : ""} {following ? "Following." : ""}
      </span>
      {error ? (
        <p className={ui["field-error"]} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
