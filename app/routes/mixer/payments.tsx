import { Form, useActionData } from "react-router";
import type { Route } from "./+types/payments";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { StatusButton, useIsPending } from "~/components/forms";
import { CONSOLE_COPY } from "~/domain/copy-console";
import { formatMoney } from "~/domain/money";
import { ORDER_CODE_RE } from "~/domain/order-code";
import { PAYMENT_PROVIDERS, type PaymentProvider } from "~/domain/orders";
import { formatPlaced } from "~/domain/text";
import { refuseWithToast } from "~/server/platform/forms.server";
import { readForm } from "~/server/platform/http.server";
import { getLog } from "~/server/platform/log.server";
import { toast } from "~/server/platform/toast.server";
import { nudgeOrderEmails } from "~/server/services/order-emails.server";
import { requireMixer } from "~/server/services/mixer.server";
import { mixerInbox } from "~/server/services/conversation.server";
import { ConsoleNav } from "./console-nav";

export const ErrorBoundary = () => <GeneralErrorBoundary />;

export const meta: Route.MetaFunction = () => [{ title: CONSOLE_COPY.payments.title }];

type Unmatched = {
  provider: PaymentProvider;
  eventId: string;
  code: string | null;
  amount: string | null;
  reference: string | null;
  receivedAt: string;
};

const str = (v: unknown) => (typeof v === "string" ? v : null);

export async function loader({ context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  const { rows, error } = await api.unmatchedPayments();
  if (error) getLog().error({ code: error.code, err: error.message }, "payments: read failed");
  const payments: Unmatched[] = rows.map((r) => ({
    provider: r.provider as PaymentProvider,
    eventId: String(r.event_id),
    code: str(r.code),
    amount: formatMoney(typeof r.amount === "number" ? r.amount : null, str(r.currency)),
    reference: str(r.reference),
    receivedAt: new Date(String(r.received_at)).toISOString(),
  }));
  return { payments, inbox: await mixerInbox(api) };
}

/** Attach a payment to an order by its code: the order is marked paid with the payment's amount. */
export async function action({ request, context }: Route.ActionArgs) {
  const { api } = requireMixer(context);
  const form = await readForm(request);
  const provider = String(form.get("provider") ?? "");
  const eventId = String(form.get("eventId") ?? "");
  const code = String(form.get("code") ?? "")
    .trim()
    .toUpperCase();
  const typed = { eventId, code };
  const refuse = (message: string) => refuseWithToast(context, 400, { message }, { ok: false as const, typed });
  if (!PAYMENT_PROVIDERS.includes(provider as PaymentProvider) || !eventId || eventId.length > 200)
    return refuse(CONSOLE_COPY.payments.gone);
  if (!ORDER_CODE_RE.test(code)) return refuse(CONSOLE_COPY.payments.noOrder);
  const { outcome, error } = await api.attachPayment(provider as PaymentProvider, eventId, code);
  if (error) getLog().error({ code: error.code, err: error.message }, "payments: attach failed");
  if (outcome !== "attached")
    return refuse(
      outcome === "no_order"
        ? CONSOLE_COPY.payments.noOrder
        : outcome === "already_paid"
          ? CONSOLE_COPY.payments.alreadyPaid
          : CONSOLE_COPY.payments.gone,
    );
  nudgeOrderEmails();
  return toast(context).redirect("/mixer/payments", { message: CONSOLE_COPY.payments.attached(code) }, { status: 303 });
}

export default function Payments({ loaderData }: Route.ComponentProps) {
  const { payments, inbox } = loaderData;
  return (
    <section aria-labelledby="payments-heading" className="space-y-5">
      <ConsoleNav inbox={inbox} />
      <h1 id="payments-heading" className="font-display text-2xl font-bold uppercase tracking-wider text-acid">
        {CONSOLE_COPY.payments.title}
      </h1>
      <p className="text-sm text-muted">{CONSOLE_COPY.payments.intro}</p>
      {payments.length === 0 ? (
        <p className="card p-6 text-muted" data-testid="payments-empty">
          {CONSOLE_COPY.payments.empty}
        </p>
      ) : (
        <ul className="space-y-3" data-testid="payments">
          {payments.map((p) => (
            <Payment key={`${p.provider}:${p.eventId}`} payment={p} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Payment({ payment }: { payment: Unmatched }) {
  const busy = useIsPending();
  const refused = useActionData<typeof action>();
  const typed = refused && refused.typed.eventId === payment.eventId ? refused.typed.code : undefined;
  const id = `attach-${payment.provider}-${payment.eventId}`.replace(/[^\w-]/g, "_");
  return (
    <li className="card p-4" data-testid="payment">
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
        <dt className="text-muted">{CONSOLE_COPY.payments.provider}</dt>
        <dd>{CONSOLE_COPY.providers[payment.provider]}</dd>
        <dt className="text-muted">{CONSOLE_COPY.payments.amount}</dt>
        <dd className="font-bold">{payment.amount ?? CONSOLE_COPY.payments.none}</dd>
        <dt className="text-muted">{CONSOLE_COPY.payments.codeGiven}</dt>
        <dd className="break-all font-display">{payment.code ?? CONSOLE_COPY.payments.none}</dd>
        <dt className="text-muted">{CONSOLE_COPY.payments.reference}</dt>
        <dd className="break-all">{payment.reference ?? CONSOLE_COPY.payments.none}</dd>
        <dt className="text-muted">{CONSOLE_COPY.payments.received}</dt>
        <dd>
          <time dateTime={payment.receivedAt}>{formatPlaced(payment.receivedAt)}</time>
        </dd>
      </dl>
      <Form method="post" className="mt-3 flex flex-wrap items-end gap-2 border-t border-line pt-3">
        <input type="hidden" name="provider" value={payment.provider} />
        <input type="hidden" name="eventId" value={payment.eventId} />
        <div>
          <label className="label" htmlFor={id}>
            {CONSOLE_COPY.payments.attachTo}
          </label>
          <input
            id={id}
            name="code"
            defaultValue={typed}
            key={typed}
            maxLength={8}
            autoComplete="off"
            spellCheck={false}
            className="field w-40 font-display uppercase tracking-widest"
          />
        </div>
        <StatusButton pending={busy} pendingLabel={CONSOLE_COPY.payments.attaching} className="btn-primary">
          {CONSOLE_COPY.payments.attach}
        </StatusButton>
      </Form>
    </li>
  );
}
