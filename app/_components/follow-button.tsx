"use client";
// Follow a topic or a person (docs/features/following.md#topics-and-people): their new claims reach
// your inbox. Shared pages place it for everyone; the viewer and what they follow are read here. A
// visitor sees a link to sign in; the toggle, with the query client behind it, loads for someone
// signed in (follow-toggle.tsx).
import dynamic from "next/dynamic";
import Link from "~/app/_components/link.tsx";
import { useViewer } from "../_lib/viewer.ts";
import ui from "./ui.module.css";

export type FollowTarget = { kind: "topic"; tag: string } | { kind: "person"; agentId: string; name: string };

const FollowToggle = dynamic(() => import("./follow-toggle.tsx").then((m) => m.FollowToggle), {
  ssr: false,
  loading: () => (
    <button type="button" className={`${ui.button} ${ui["button--small"]}`} disabled>
      Follow
    </button>
  ),
});

export function FollowButton(target: FollowTarget) {
  const viewer = useViewer();
  const label = target.kind === "topic" ? `#${target.tag}` : target.name;
  const className = `${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`;
  // Until the viewer is known (the server's render, the first moments in a browser) the visitor's
  // link holds its place unseen: the page does not move when it appears, for most first views.
  if (viewer.status === "unknown") {
    return (
      <span className={className} style={{ visibility: "hidden" }} aria-hidden="true">
        Sign in to follow {label}
      </span>
    );
  }
  if (viewer.status !== "signed-in") {
    return (
      <Link href="/signin" className={className}>
        Sign in to follow {label}
      </Link>
    );
  }
  if (target.kind === "person" && viewer.viewer.id === target.agentId) return null;
  return <FollowToggle target={target} label={label} />;
}
