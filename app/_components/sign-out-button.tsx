"use client";
// In every page's header once signed in: NextAuth's browser client is fetched when the button is
// pressed, not with every page's scripts.
import { useState } from "react";
import ui from "./ui.module.css";

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}
      disabled={pending}
      onClick={async () => {
        setPending(true);
        const { signOut } = await import("next-auth/react");
        await signOut({ redirect: false });
        // A full navigation, so every server-rendered part forgets the session.
        window.location.assign("/");
      }}
    >
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
