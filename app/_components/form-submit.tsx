"use client";
// The submit and error handling of the web UI's forms (docs/architecture.md#the-error-path): the fields go to
// one call, the server's answer comes back as an ApiError shown next to the field it names, and a
// field's error clears as soon as the person edits that field.
import { useId, useState, type FormEvent } from "react";
import { toApiError, withoutField, type ApiError } from "../_lib/api-error.ts";
import { changedField, FieldError } from "./form-bits.tsx";
import ui from "./ui.module.css";

export interface FormSubmit {
  error: ApiError | null;
  /** The last submission succeeded (cleared by the next one). */
  done: boolean;
  /** Spread on <ClientForm>: submit, clear a field's error on change, no browser validation bubbles. */
  formProps: {
    onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
    onChange: (event: FormEvent<HTMLFormElement>) => void;
    noValidate: true;
  };
}

/**
 * `submit` gets the form's fields and element; what it throws becomes the shown error, through
 * `explain` when a status deserves words of the form's own (a 403 naming the field to fix).
 */
export function useFormSubmit(
  submit: (fields: FormData, form: HTMLFormElement) => Promise<void>,
  explain?: (error: ApiError) => ApiError,
): FormSubmit {
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState(false);
  return {
    error,
    done,
    formProps: {
      noValidate: true,
      onChange: (event) => setError((err) => withoutField(err, changedField(event))),
      onSubmit: async (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        setError(null);
        setDone(false);
        try {
          await submit(new FormData(form), form);
          setDone(true);
        } catch (err) {
          const apiError = toApiError(err);
          setError(explain ? explain(apiError) : apiError);
        }
      },
    },
  };
}

/** What the password rules say, in words a person reads (the API names the field and the rule). */
const PASSWORD_HINT = "At least 8 characters, with an uppercase letter, a lowercase letter and a digit.";

/**
 * A password being chosen (sign-up, reset, change): its rules as a hint, the server's message under it.
 * `name` is the field the API names in its error.
 */
export function NewPasswordField({ error, name = "new_password", label = "New password" }: { error: ApiError | null; name?: string; label?: string }) {
  const id = `${useId()}-${name}`;
  return (
    <div className={ui.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="password"
        className={ui.input}
        autoComplete="new-password"
        required
        aria-describedby={`${id}-hint${error?.fields[name] ? ` ${id}-error` : ""}`}
        aria-invalid={error?.fields[name] ? true : undefined}
      />
      <span className={ui.hint} id={`${id}-hint`}>
        {PASSWORD_HINT}
      </span>
      <FieldError error={error} field={name} id={id} />
    </div>
  );
}
