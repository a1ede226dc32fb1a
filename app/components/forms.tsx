// After Epic Stack's forms.tsx, status-button.tsx and useIsPending.
import { getInputProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { useEffect, useRef, type ButtonHTMLAttributes, type ReactNode } from "react";
import { useFormAction, useNavigation } from "react-router";

export function useIsPending({ formAction, intent }: { formAction?: string; intent?: string } = {}) {
  const contextual = useFormAction();
  const navigation = useNavigation();
  return (
    navigation.state === "submitting" &&
    navigation.formAction === (formAction ?? contextual) &&
    (intent === undefined || navigation.formData?.get("intent") === intent)
  );
}

/** Rules run on the server only: the same with and without JavaScript, and no zod shipped. */
export function useServerForm(
  id: string,
  result: SubmissionResult<string[]> | null | undefined,
  defaultValue?: Record<string, string | number | boolean | undefined>,
) {
  const navigation = useNavigation();
  return useForm({
    id,
    defaultValue,
    lastResult: navigation.state === "idle" ? result : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
  });
}

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

/** The browser's own `required` is off: the server validates. */
export function Field({
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
  errorId?: string;
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

/**
 * `focus`: the errors take focus when they appear, which brings them into view on a phone: the
 * browser's autofocus for a page rendered by the server (no JavaScript), a focus() with it.
 */
export function ErrorList({ id, messages, focus = false }: { id: string; messages: string[]; focus?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const text = messages.join("\n");
  useEffect(() => {
    if (focus && text) box.current?.focus();
  }, [focus, text]);
  if (!messages.length) return null;
  return (
    <div
      ref={box}
      id={id}
      role="alert"
      data-testid="auth-error"
      tabIndex={focus ? -1 : undefined}
      // eslint-disable-next-line jsx-a11y/no-autofocus -- the answer to the form just sent, in view without JavaScript
      autoFocus={focus}
      className="scroll-mt-24 rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm text-cream"
    >
      {messages.map((m) => (
        <p key={m}>{m}</p>
      ))}
    </div>
  );
}

export function StatusButton({
  pending,
  pendingLabel,
  children,
  disabled,
  className = "btn-primary w-full",
  ...props
}: { pending: boolean; pendingLabel: string } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button type="submit" className={className} disabled={pending || disabled} {...props}>
      {pending ? pendingLabel : children}
    </button>
  );
}

export function FormCard({
  id,
  heading,
  level = 1,
  wide = false,
  children,
}: {
  id: string;
  heading: string;
  level?: 1 | 2;
  wide?: boolean;
  children: ReactNode;
}) {
  const Heading = level === 1 ? "h1" : "h2";
  const card = (
    <div className="card p-6 sm:p-8">
      <Heading
        id={`${id}-heading`}
        className={
          level === 1
            ? "font-display text-3xl font-bold tracking-widest text-acid"
            : "font-display text-xl font-bold uppercase tracking-wider text-acid"
        }
      >
        {heading}
      </Heading>
      {children}
    </div>
  );
  if (level === 2) return <section aria-labelledby={`${id}-heading`}>{card}</section>;
  // Its id is a link's fragment (`/auth?mode=signup#auth`): on a phone the form is below the front door.
  return (
    <section id={id} className={`mx-auto scroll-mt-4 ${wide ? "max-w-5xl" : "max-w-md"}`} aria-labelledby={`${id}-heading`}>
      {card}
    </section>
  );
}
