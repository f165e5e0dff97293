"use client";
// The follow toggle itself (follow-button.tsx): loaded only for someone signed in, with the query
// client it reads what they follow and writes through.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toApiError } from "../_lib/api-error.ts";
import { Providers, useTRPC } from "../_lib/trpc.tsx";
import type { FollowTarget } from "./follow-button.tsx";
import ui from "./ui.module.css";

export function FollowToggle({ target, label }: { target: FollowTarget; label: string }) {
  return (
    <Providers>
      <Toggle target={target} label={label} />
    </Providers>
  );
}

function Toggle({ target, label }: { target: FollowTarget; label: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const following = useQuery(trpc.follows.list.queryOptions({}));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.follows.list.queryKey({}) });
  const followTopic = useMutation(trpc.follows.followTopic.mutationOptions({ onSettled: refresh }));
  const unfollowTopic = useMutation(trpc.follows.unfollowTopic.mutationOptions({ onSettled: refresh }));
  const followPerson = useMutation(trpc.follows.followPerson.mutationOptions({ onSettled: refresh }));
  const unfollowPerson = useMutation(trpc.follows.unfollowPerson.mutationOptions({ onSettled: refresh }));
  const busy = followTopic.isPending || unfollowTopic.isPending || followPerson.isPending || unfollowPerson.isPending;
  const error = followTopic.error ?? unfollowTopic.error ?? followPerson.error ?? unfollowPerson.error;

  const isFollowing =
    target.kind === "topic"
      ? (following.data?.topics.some((t) => t.tag === target.tag) ?? false)
      : (following.data?.people.some((p) => p.agent.id === target.agentId) ?? false);
  const toggle = () => {
    if (target.kind === "topic") (isFollowing ? unfollowTopic : followTopic).mutate({ tag: target.tag });
    else (isFollowing ? unfollowPerson : followPerson).mutate({ agent_id: target.agentId });
  };
  return (
    <span className={ui.row} style={{ gap: "0.5rem" }}>
      <button
        type="button"
        className={`${ui.button} ${isFollowing ? ui["button--secondary"] : ""} ${ui["button--small"]}`}
        aria-pressed={isFollowing}
        disabled={busy || following.isPending}
        onClick={toggle}
        title={isFollowing ? `Stop following ${label}` : `New claims ${target.kind === "topic" ? "in" : "by"} ${label} will reach your notifications`}
      >
        {isFollowing ? "Following" : "Follow"}
      </button>
      {error ? (
        <span className={ui["field-error"]} role="alert">
          {toApiError(error).detail}
        </span>
      ) : null}
    </span>
  );
}
