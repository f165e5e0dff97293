// Form helpers: the server's message next to the field it names, wired for screen readers.
import type { ApiError } from "../_lib/api-error.ts";
import { fieldMessage, formMessage } from "../_lib/api-error.ts";
import ui from "./ui.module.css";

/** Props for an input whose error (if any) is shown by <FieldError id={`${id}-error`}>. */
export function invalidProps(error: ApiError | null, field: string, id: string) {
  const message = fieldMessage(error, field);
  return message ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}

export function FieldError({ error, field, id }: { error: ApiError | null; field: string; id: string }) {
  const message = fieldMessage(error, field);
  if (!message) return null;
  return (
    <p id={`${id}-error`} className={ui["field-error"]} role="alert">
      {message}
    </p>
  );
}

/** The detail above the form, unless the fields already show everything the server said. */
export function FormError({ error, fields }: { error: ApiError | null; fields: readonly string[] }) {
  const message = formMessage(error, fields);
  if (!message) return null;
  return (
    <p className={ui["form-error"]} role="alert">
      {message}
    </p>
  );
}

/** The name of the field a form's change event came from (change events bubble to the form). */
export function changedField(event: { target: EventTarget }): string {
  return (event.target as unknown as { name?: string }).name ?? "";
}
