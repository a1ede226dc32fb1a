// The console's forms about an order: one fetcher's form per action (a plain form without JavaScript), the
// amount of a mark by hand, and what a refused form sent.
import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import { StatusButton } from "~/components/forms";
import { useHydrated } from "~/components/use-hydrated";
import { CONSOLE_COPY } from "~/domain/copy-console";
import type { MixerIntent } from "~/domain/order-intents";

/** What a refused form sent, shown again: the intent says which form it was. */
export type FormValues = { intent: string; code: string; deliveryUrl: string; message: string; reason: string; amount: string };

/** The amount of a mark by hand, in the currency's major units; what was typed comes back with a refusal. */
export function AmountField({
  code,
  intent,
  currency,
  value,
  onInput,
}: {
  code: string;
  intent: string;
  currency: string;
  value: string;
  onInput?: (text: string) => void;
}) {
  const id = `${intent}-${code}-amount`;
  return (
    <div className="flex items-center gap-2">
      <label className="font-display text-sm font-bold uppercase tracking-wide" htmlFor={id}>
        {CONSOLE_COPY.amountIn(currency)}
      </label>
      <input
        id={id}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        defaultValue={value}
        key={value}
        maxLength={14}
        className="field w-28"
        onInput={onInput ? (e) => onInput(e.currentTarget.value) : undefined}
      />
    </div>
  );
}

export type ActionProps = {
  fetcher: ReturnType<typeof useFetcher>;
  code: string;
  next: string | null;
  intent: MixerIntent["intent"];
  to: string;
  busy: MixerIntent["intent"] | undefined;
  label: string;
  pending: string;
  fields?: Record<string, string>;
  grow?: boolean;
  quiet?: boolean;
  children?: ReactNode;
};

export function Action({ fetcher, code, next, intent, to, busy, label, pending, fields, grow, quiet, children }: ActionProps) {
  const hydrated = useHydrated();
  return (
    <fetcher.Form
      method="post"
      action={to}
      className={grow ? "flex w-full flex-wrap items-end gap-2" : "flex flex-wrap items-end gap-2"}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="code" value={code} />
      {next ? <input type="hidden" name="next" value={next} /> : null}
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {/* With JavaScript the answer is data, not a redirect (platform/http.server.ts isFetch). */}
      {hydrated ? <input type="hidden" name="_fetch" value="1" /> : null}
      {children}
      <StatusButton
        className={quiet ? "btn-ghost" : "btn-primary"}
        pending={busy === intent}
        disabled={busy !== undefined}
        pendingLabel={pending}
      >
        {label}
      </StatusButton>
    </fetcher.Form>
  );
}

/** On the card, a form's fields behind a summary (open when a refusal brings back what was typed); elsewhere, as they are. */
export function Disclosure({
  when,
  summary,
  open,
  className = "",
  testId,
  children,
}: {
  when: boolean;
  summary: string;
  open: boolean;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  if (!when) return <>{children}</>;
  return (
    <details className={className} open={open || undefined} data-testid={testId}>
      <summary className="cursor-pointer text-sm font-bold text-muted hover:text-cream">{summary}</summary>
      <div className="mt-2">{children}</div>
    </details>
  );
}
