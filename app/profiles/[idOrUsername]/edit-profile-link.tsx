"use client";
// "Edit profile" on your own profile (the page is the same for everyone: the viewer is known here).
import Link from "next/link";
import { useViewer } from "../../_lib/viewer.ts";
import ui from "../../_components/ui.module.css";

export function EditProfileLink({ agentId }: { agentId: string }) {
  const { viewer } = useViewer();
  if (viewer?.id !== agentId) return null;
  return (
    <Link href="/settings#settings-profile" className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}>
      Edit profile
    </Link>
  );
}
