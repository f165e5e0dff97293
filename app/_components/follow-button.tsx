"use client";
// Follow a topic or a person (docs/features/following.md#topics-and-people): their new claims reach
// your inbox. Shared pages place it for everyone; the viewer and what they follow are read here.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { toApiError } from "../_lib/api-error.ts";
import { useTRPC } from "../_lib/trpc.tsx";
import { useViewer } from "../_lib/viewer.ts";
import ui from "./ui.module.css";

type Target = { kind: "topic"; tag: string } | { kind: "person"; agentId: string; name: string };

export function FollowButton(target: Target) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const viewer = useViewer();
  const signedIn = viewer.status === "signed-in";
  const following = useQuery({ ...trpc.follows.list.queryOptions({}), enabled: signedIn });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.follows.list.queryKey({}) });
  const followTopic = useMutation(trpc.follows.followTopic.mutationOptions({ onSettled: refresh }));
  const unfollowTopic = useMutation(trpc.follows.unfollowTopic.mutationOptions({ onSettled: refresh }));
  const followPerson = useMutation(trpc.follows.followPerson.mutationOptions({ onSettled: refresh }));
  const unfollowPerson = useMutation(trpc.follows.unfollowPerson.mutationOptions({ onSettled: refresh }));
  const busy = followTopic.isPending || unfollowTopic.isPending || followPerson.isPending || unfollowPerson.isPending;
  const error = followTopic.error ?? unfollowTopic.error ?? followPerson.error ?? unfollowPerson.error;

  if (viewer.status === "unknown") return null;
  const label = target.kind === "topic" ? `#${target.tag}` : target.name;
  if (!signedIn) {
    return (
      <Link href="/signin" className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}>
        Sign in to follow {label}
      </Link>
    );
  }
  if (target.kind === "person" && viewer.viewer.id === target.agentId) return null;
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
