"use client";
// A credential the server shows only once (a new API key, a webhook's signing secret): the warning, the
// value ready to select, a copy button that says whether the copy worked, and Done.
import { useId, useState, type ReactNode } from "react";
import styles from "./shown-once.module.css";
import ui from "./ui.module.css";

export function ShownOnce({
  title,
  warning,
  label,
  what,
  value,
  testId,
  onDone,
}: {
  title: ReactNode;
  warning: ReactNode;
  /** The input's accessible name, e.g. "Your new API key". */
  label: string;
  /** What it is, in the status line: "key", "secret". */
  what: string;
  value: string;
  testId?: string;
  onDone: () => void;
}) {
  const id = useId();
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  return (
    <section className={styles.panel} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={ui.card__title}>
        {title}
      </h2>
      <p className={styles.warning} role="alert">
        {warning}
      </p>
      <div className={styles.row}>
        <label htmlFor={`${id}-value`} className="visually-hidden">
          {label}
        </label>
        <input id={`${id}-value`} className={`${ui.input} ${styles.value}`} readOnly value={value} onFocus={(e) => e.currentTarget.select()} data-testid={testId} />
        <button
          type="button"
          className={ui.button}
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(value);
              setCopied("yes");
            } catch {
              setCopied("failed");
            }
          }}
        >
          {copied === "yes" ? "Copied" : "Copy"}
        </button>
        <button type="button" className={`${ui.button} ${ui["button--ghost"]}`} onClick={onDone}>
          Done
        </button>
      </div>
      <p className={`${ui.small} ${ui.muted}`} aria-live="polite">
        {copied === "yes" ? `The ${what} is on your clipboard.` : copied === "failed" ? `Could not copy: select the ${what} and copy it by hand.` : ""}
      </p>
    </section>
  );
}
