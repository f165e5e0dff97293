"use client";
// "Edit profile" on your own profile, "Follow" on anyone else's (the page is the same for everyone:
// the viewer is known here).
import Link from "~/app/_components/link.tsx";
import { FollowButton } from "../../_components/follow-button.tsx";
import { useViewer } from "../../_lib/viewer.ts";
import ui from "../../_components/ui.module.css";

export function EditProfileLink({ agentId, name = "this person" }: { agentId: string; name?: string }) {
  const { viewer } = useViewer();
  if (viewer?.id !== agentId) return <FollowButton kind="person" agentId={agentId} name={name} />;
  return (
    <Link href="/settings#settings-profile" className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}>
      Edit profile
    </Link>
  );
}
