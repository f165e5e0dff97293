"use client";
// A form that only React submits. Until the page has hydrated its controls are disabled: a click or an
// Enter before then would otherwise make the browser submit the form itself — a GET to the page's own
// URL that drops the vote or comment silently and, on the sign-in form, puts the password in the URL.
// `method="post"` keeps any such submission's fields out of the URL all the same.
import { useSyncExternalStore, type FormHTMLAttributes } from "react";
import ui from "./ui.module.css";

const noSubscription = () => () => {};

/** False in the server render and during hydration, true once React runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export function ClientForm({ children, ...props }: FormHTMLAttributes<HTMLFormElement>) {
  const hydrated = useHydrated();
  return (
    <form method="post" {...props}>
      <fieldset className={ui["form-fieldset"]} disabled={!hydrated}>
        {children}
      </fieldset>
    </form>
  );
}
