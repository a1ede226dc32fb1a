import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import { StatusButton } from "~/components/forms";
import { PreviewControl } from "~/components/previews";
import { useHydrated } from "~/components/use-hydrated";
import { findDesign } from "~/domain/catalogue";
import { COPY } from "~/domain/copy";
import { CONSOLE_COPY } from "~/domain/copy-console";
import { optionLabels } from "~/domain/deck";
import { MIXER_MESSAGE_MAX, type MixerIntent } from "~/domain/intents";
import type { QueuedOrder } from "~/domain/orders";
import { formatPlaced, maxLengthAttribute } from "~/domain/text";
import { useRootData } from "~/root";

/** What the mixer typed into a refused form, shown again. */
export type FormValues = { code: string; deliveryUrl: string; message: string };

export function OrderCard({ order, search, refused }: { order: QueuedOrder; search: string; refused: FormValues | null }) {
  const mixer = useRootData()?.shop.mixerName ?? "";
  // One fetcher per order: its actions queue behind each other and show one pending label.
  const fetcher = useFetcher<{ ok: boolean; values: FormValues | null }>({ key: `order-${order.code}` });
  const typed = (fetcher.data && !fetcher.data.ok ? fetcher.data.values : null) ?? refused;
  const busy = fetcher.state !== "idle" ? (fetcher.formData?.get("intent") as MixerIntent["intent"] | undefined) : undefined;
  return (
    <li
      id={`order-${order.code}`}
      className="card scroll-mt-24 p-4"
      data-testid="queue-order"
      aria-labelledby={`order-${order.code}-heading`}
    >
      <OrderSummary order={order} mixer={mixer} />
      <div className="mt-4 flex flex-wrap items-end gap-3 border-t border-line pt-3">
        {order.status === "received" ? (
          <Action
            fetcher={fetcher}
            code={order.code}
            intent="start-mixing"
            search={search}
            busy={busy}
            label={CONSOLE_COPY.startMixing}
            pending={CONSOLE_COPY.starting}
          />
        ) : null}
        {order.status === "mixing" ? (
          <Action
            fetcher={fetcher}
            code={order.code}
            intent="mark-sent"
            search={search}
            busy={busy}
            label={CONSOLE_COPY.markSent}
            pending={CONSOLE_COPY.sending}
            grow
          >
            <div className="grid w-full gap-2 sm:grid-cols-2">
              <div>
                <label className="label" htmlFor={`delivery-${order.code}`}>
                  {CONSOLE_COPY.deliveryLink}
                </label>
                <input
                  id={`delivery-${order.code}`}
                  name="deliveryUrl"
                  type="url"
                  inputMode="url"
                  placeholder="https://"
                  defaultValue={typed?.deliveryUrl ?? ""}
                  key={`url-${typed?.deliveryUrl ?? ""}`}
                  className="field"
                  aria-describedby={`delivery-${order.code}-hint`}
                />
                <p id={`delivery-${order.code}-hint`} className="mt-1 text-xs text-muted">
                  {CONSOLE_COPY.deliveryLinkHint}
                </p>
              </div>
              <div>
                <label className="label" htmlFor={`message-${order.code}`}>
                  {CONSOLE_COPY.messageToShopper}
                </label>
                <textarea
                  id={`message-${order.code}`}
                  name="message"
                  rows={2}
                  maxLength={maxLengthAttribute(MIXER_MESSAGE_MAX)}
                  defaultValue={typed?.message ?? ""}
                  key={`message-${typed?.message ?? ""}`}
                  className="field resize-y"
                />
              </div>
            </div>
          </Action>
        ) : null}
        {order.status === "sent" && order.delivery_url ? (
          <a href={order.delivery_url} className="btn-ghost" rel="noopener noreferrer" target="_blank">
            {COPY.orders.listen}
          </a>
        ) : null}
        {!order.paid ? (
          <Action
            fetcher={fetcher}
            code={order.code}
            intent="mark-paid"
            search={search}
            busy={busy}
            label={CONSOLE_COPY.markPaid}
            pending={CONSOLE_COPY.marking}
          />
        ) : null}
      </div>
    </li>
  );
}

function OrderSummary({ order, mixer }: { order: QueuedOrder; mixer: string }) {
  const options = optionLabels(order.toggles, mixer);
  const design = findDesign(order.design_id);
  const headingId = `order-${order.code}-heading`;
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="font-display text-xl font-bold tracking-[0.2em] text-acid" data-testid="order-code">
          {order.code}
        </h2>
        <p className="flex flex-wrap gap-2 text-sm">
          <span className="rounded-full border border-line px-2 py-0.5 font-bold" data-testid="order-status">
            {COPY.orders.status(order.status)}
          </span>
          <span
            className={`rounded-full border px-2 py-0.5 font-bold ${order.paid ? "border-teal text-teal" : "border-line text-muted"}`}
            data-testid="order-paid"
          >
            {order.paid ? COPY.orders.paid : CONSOLE_COPY.unpaid}
          </span>
        </p>
      </div>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
        <dt className="text-muted">{CONSOLE_COPY.shopper}</dt>
        <dd className="min-w-0 break-words" data-testid="order-shopper">
          {order.shopper.name}
          {order.shopper.email ? <span className="text-muted"> · {order.shopper.email}</span> : null}
        </dd>
        <dt className="text-muted">{CONSOLE_COPY.placed}</dt>
        <dd>
          <time dateTime={order.created_at}>{formatPlaced(order.created_at)}</time>
        </dd>
        <dt className="text-muted">{CONSOLE_COPY.design}</dt>
        <dd>{design?.name ?? COPY.review.none}</dd>
        <dt className="text-muted">{COPY.orders.options}</dt>
        <dd>{options.length ? options.join(", ") : COPY.orders.none}</dd>
        <dt className="text-muted">{COPY.orders.note}</dt>
        <dd className="min-w-0 whitespace-pre-wrap break-words" data-testid="order-note">
          {order.note || COPY.orders.none}
        </dd>
      </dl>
      <ol
        className="mt-3 grid gap-x-6 gap-y-1 md:grid-cols-2"
        aria-label={`${COPY.review.tracks}: ${order.code}`}
        data-testid="order-tracks"
      >
        {order.tracks.map((track, i) => (
          <li key={`${track.id}-${i}`} className="flex flex-wrap items-center gap-2 text-sm">
            <span className="w-6 shrink-0 text-right font-display text-muted">{i + 1}.</span>
            <span className="min-w-0 flex-1 font-bold">{track.title}</span>
            <PreviewControl id={`${order.code}-${i}`} title={track.title} src={track.previewUrl} disabled={false} />
          </li>
        ))}
      </ol>
    </>
  );
}

type ActionProps = {
  fetcher: ReturnType<typeof useFetcher>;
  code: string;
  intent: MixerIntent["intent"];
  search: string;
  busy: MixerIntent["intent"] | undefined;
  label: string;
  pending: string;
  grow?: boolean;
  children?: ReactNode;
};

/** A console action: a plain POST without JavaScript, this order's fetcher with it. */
function Action({ fetcher, code, intent, search, busy, label, pending, grow = false, children }: ActionProps) {
  const hydrated = useHydrated();
  return (
    <fetcher.Form
      method="post"
      action={`/mixer${search}`}
      className={grow ? "flex w-full flex-col items-start gap-2" : undefined}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="code" value={code} />
      {/* With JavaScript the answer is data, not a redirect (platform/http.server.ts isFetch). */}
      {hydrated ? <input type="hidden" name="_fetch" value="1" /> : null}
      {children}
      <StatusButton
        className={intent === "mark-paid" ? "btn-ghost" : "btn-primary"}
        pending={busy === intent}
        disabled={busy !== undefined}
        pendingLabel={pending}
      >
        {label}
      </StatusButton>
    </fetcher.Form>
  );
}
