import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";

/** The form's messages, each once: notices first, then the form's, then each field's. */
export function formMessages(
  form: { errors?: string[] },
  fields: { errors?: string[] }[],
  notices: (string | undefined | null)[] = [],
): string[] {
  const all = [
    ...notices.filter((n): n is string => Boolean(n)),
    ...(form.errors ?? []),
    ...fields.flatMap((f) => f.errors ?? []),
  ];
  return all.filter((m, i) => all.indexOf(m) === i);
}

/**
 * A labelled input of an account form. The server validates (the same with and without
 * JavaScript), so the browser's own `required` is off; the errors box describes every field.
 */
export function FormField({
  meta,
  label,
  type,
  autoComplete,
  inputMode,
  errorId,
  children,
}: {
  meta: FieldMetadata<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- conform types a field by its form's schema
  label: string;
  type: "text" | "email" | "password";
  autoComplete: string;
  inputMode?: "email";
  /** The errors box's id while it shows. */
  errorId?: string;
  /** Shown under the input (a link). */
  children?: ReactNode;
}) {
  return (
    <div>
      <label className="label" htmlFor={meta.id}>
        {label}
      </label>
      <input
        className="field"
        autoComplete={autoComplete}
        inputMode={inputMode}
        aria-describedby={errorId}
        {...getInputProps(meta, { type })}
        required={false}
        key={meta.key}
      />
      {children}
    </div>
  );
}

/** The red box under an account form: every message, announced. */
export function FormErrors({ id, messages }: { id: string; messages: string[] }) {
  if (!messages.length) return null;
  return (
    <div
      id={id}
      role="alert"
      data-testid="auth-error"
      className="rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm text-cream"
    >
      {messages.map((m) => (
        <p key={m}>{m}</p>
      ))}
    </div>
  );
}
