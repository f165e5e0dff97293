"use client";
import { signOut } from "next-auth/react";
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
        await signOut({ redirect: false });
        // A full navigation, so every server-rendered part forgets the session.
        window.location.assign("/");
      }}
    >
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
