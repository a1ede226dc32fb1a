// The console's forms about an order: one fetcher's form per action (a plain form without JavaScript), the
// amount of a mark by hand, and what a refused form sent.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useFetcher } from "react-router";
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

/** Where an order's forms stand: on the queue's card (the order's code), or on the order's page. */
export type FormPlace =
  | { on: "card"; code: string }
  | {
      on: "page";
      /** The form the card's link asked open (`?open=` its intent, without JavaScript). */
      opened: string | null;
    };

const SUMMARY = "cursor-pointer text-sm font-bold text-muted hover:text-cream";

/**
 * A form behind its summary. On the queue's card it is not rendered until opened (the card stays light):
 * the summary is a link to the order's page (`?open=` the intent), where it is open; with JavaScript the
 * link renders it here instead. On the order's page a details element. Open at once when `open`
 * (a refusal brought back what was typed) or when the card's link asked for it.
 */
export function Disclosure({
  place,
  intent,
  summary,
  open,
  className = "",
  testId,
  children,
}: {
  place: FormPlace;
  intent: MixerIntent["intent"];
  summary: string;
  open: boolean;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const [opened, setOpened] = useState(false);
  const shown = useRef<HTMLElement>(null);
  // The summary takes the focus its link had.
  useEffect(() => {
    if (opened) shown.current?.focus();
  }, [opened]);
  const asked = open || (place.on === "page" && place.opened === intent);
  if (place.on === "page" || asked || opened)
    return (
      <details className={className} open={place.on === "card" || asked ? true : undefined} data-testid={testId}>
        <summary ref={shown} className={SUMMARY}>
          {summary}
        </summary>
        <div className="mt-2">{children}</div>
      </details>
    );
  // One element before and after hydration (a click while the page hydrates is never lost): without JavaScript
  // the link opens the order's page; with it, the form here.
  return (
    <div className={className} data-testid={testId}>
      <Link
        to={`/mixer/orders/${place.code}?open=${intent}`}
        className={`${SUMMARY} disclosure-closed`}
        aria-expanded={hydrated ? false : undefined}
        onClick={(event) => {
          event.preventDefault();
          setOpened(true);
        }}
      >
        {summary}
      </Link>
    </div>
  );
}
