import { Form, Link, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/payments";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { StatusButton } from "~/components/forms";
import { CONSOLE_COPY } from "~/domain/copy-console";
import { LEDGER_FILTERS, ledgerSearch, readLedgerQuery, type LedgerQuery, type LedgerRow } from "~/domain/ledger";
import { LEDGER_PROVIDERS } from "~/domain/orders";
import { LocalTime } from "~/components/local-time";
import { refuseWithToast } from "~/server/platform/forms.server";
import { readForm } from "~/server/platform/http.server";
import { toast } from "~/server/platform/toast.server";
import { mixerInbox } from "~/server/services/conversation.server";
import { attachPayment, keepPayment, ledgerPage } from "~/server/services/ledger.server";
import { requireMixer } from "~/server/services/mixer.server";
import { ConsoleNav } from "./console-nav";

export const ErrorBoundary = () => <GeneralErrorBoundary />;

export const meta: Route.MetaFunction = () => [{ title: CONSOLE_COPY.payments.title }];

const COPY = CONSOLE_COPY.payments;

export async function loader({ url, context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  const query = readLedgerQuery(url.searchParams);
  const [page, inbox] = await Promise.all([ledgerPage(api, query), mixerInbox(api)]);
  return { query, ...page, inbox };
}

/** Attach money that came without a known order to one, or keep an extra payment. */
export async function action({ url, request, context }: Route.ActionArgs) {
  const { api } = requireMixer(context);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "attach");
  const provider = String(form.get("provider") ?? "");
  const eventId = String(form.get("eventId") ?? "");
  const code = String(form.get("code") ?? "")
    .trim()
    .toUpperCase();
  const outcome =
    intent === "keep"
      ? await keepPayment(api, provider, eventId)
      : intent === "attach"
        ? await attachPayment(api, provider, eventId, code)
        : null;
  const typed = { eventId, code };
  if (!outcome || !outcome.ok)
    return refuseWithToast(
      context,
      outcome ? 409 : 400,
      { message: outcome?.message ?? CONSOLE_COPY.alreadyUpdated },
      {
        ok: false as const,
        typed,
      },
    );
  return toast(context).redirect(`/mixer/payments${url.search}`, { message: outcome.message }, { status: 303 });
}

export default function Payments({ loaderData }: Route.ComponentProps) {
  const { query, rows, hasNext, unmatched, inbox } = loaderData;
  return (
    <section aria-labelledby="payments-heading" className="space-y-5">
      <ConsoleNav inbox={inbox} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="payments-heading" className="font-display text-2xl font-bold uppercase tracking-wider text-acid">
          {COPY.title}
        </h1>
        <a
          href={`/mixer/payments.csv${ledgerSearch({ ...query, page: 1 })}`}
          download="payments.csv"
          className="btn-ghost"
          data-testid="ledger-csv"
        >
          {COPY.downloadCsv}
        </a>
      </div>
      <p className="text-sm text-muted">{COPY.intro}</p>
      <LedgerFilters query={query} />
      {unmatched.length > 0 ? (
        <section aria-labelledby="unmatched-heading" className="space-y-3">
          <h2 id="unmatched-heading" className="font-display text-lg font-bold uppercase tracking-wider">
            {COPY.unmatchedTitle}
          </h2>
          <p className="text-sm text-muted">{COPY.unmatchedIntro}</p>
          <ul className="space-y-3" data-testid="payments">
            {unmatched.map((p) => (
              <Unmatched key={`${p.provider}:${p.eventId}`} payment={p} />
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="ledger-heading" className="space-y-3">
        <h2 id="ledger-heading" className="font-display text-lg font-bold uppercase tracking-wider">
          {COPY.ledgerTitle}
        </h2>
        {rows.length === 0 ? (
          <p className="card p-6 text-muted" data-testid="ledger-empty">
            {COPY.empty}
          </p>
        ) : (
          <ol className="card divide-y divide-line" data-testid="ledger">
            {rows.map((row) => (
              <Movement key={`${row.provider}:${row.eventId}`} row={row} />
            ))}
          </ol>
        )}
        <nav aria-label={COPY.pages} className="flex items-center justify-between gap-3">
          {query.page > 1 ? (
            <Link to={`/mixer/payments${ledgerSearch({ ...query, page: query.page - 1 })}`} className="btn-ghost" rel="prev">
              {CONSOLE_COPY.previous}
            </Link>
          ) : (
            <span />
          )}
          {hasNext ? (
            <Link to={`/mixer/payments${ledgerSearch({ ...query, page: query.page + 1 })}`} className="btn-ghost" rel="next">
              {CONSOLE_COPY.next}
            </Link>
          ) : null}
        </nav>
      </section>
    </section>
  );
}

function LedgerFilters({ query }: { query: LedgerQuery }) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <nav aria-label={COPY.filtersLabel} className="flex flex-wrap gap-2">
        {LEDGER_FILTERS.map((filter) => (
          <Link
            key={filter}
            to={`/mixer/payments${ledgerSearch({ ...query, filter, page: 1 })}`}
            className={filter === query.filter ? "btn-primary" : "btn-ghost"}
            aria-current={filter === query.filter ? "page" : undefined}
          >
            {COPY.filters[filter]}
          </Link>
        ))}
      </nav>
      <Form method="get" action="/mixer/payments" className="flex items-end gap-2">
        {query.filter !== "all" ? <input type="hidden" name="filter" value={query.filter} /> : null}
        <div>
          <label htmlFor="ledger-provider" className="label">
            {COPY.provider}
          </label>
          <select id="ledger-provider" name="provider" defaultValue={query.provider ?? ""} className="field">
            <option value="">{COPY.allProviders}</option>
            {LEDGER_PROVIDERS.map((p) => (
              <option key={p} value={p}>
                {CONSOLE_COPY.providers[p]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-ghost">
          {COPY.show}
        </button>
      </Form>
    </div>
  );
}

/** This row's own form is on its way (each row has a form of its own). */
function usePending(intent: string, eventId: string) {
  const { state, formData } = useNavigation();
  return state === "submitting" && formData?.get("intent") === intent && formData.get("eventId") === eventId;
}

function Movement({ row }: { row: LedgerRow }) {
  const busy = usePending("keep", row.eventId);
  const sign = row.kind === "payment" ? "+" : "−";
  return (
    <li
      className="grid gap-1 p-3 text-sm sm:grid-cols-[9rem_minmax(0,1fr)_auto] sm:items-baseline sm:gap-3"
      data-testid="ledger-row"
    >
      <span className={`font-display font-bold ${row.kind === "payment" ? "text-teal" : "text-signal"}`}>
        {row.money ? `${sign}${row.money}` : COPY.noAmount}
      </span>
      <span className="min-w-0 break-words">
        <span className="font-bold">{COPY.kinds[row.kind]}</span> · {CONSOLE_COPY.providers[row.provider]}
        {row.markedBy ? ` (${row.markedBy})` : ""} · <LocalTime iso={row.receivedAt} className="text-muted" />
        <br />
        {row.orderCode ? (
          <Link to={`/mixer/orders/${row.orderCode}`} className="font-display text-acid underline">
            {row.orderCode}
          </Link>
        ) : (
          <span className="font-bold text-signal">{COPY.noOrderYet}</span>
        )}
        {row.reference ? <span className="break-all text-muted"> · {COPY.referenceShort(row.reference)}</span> : null}
        {row.code && row.code !== row.orderCode ? (
          <span className="break-all text-muted"> · {COPY.codeShort(row.code)}</span>
        ) : null}
        {row.disputeStatus || row.disputeReason ? (
          <span className="text-muted"> · {[row.disputeReason, row.disputeStatus].filter(Boolean).join(", ")}</span>
        ) : null}
        {row.runningTotal ? <span className="text-muted"> · {COPY.runningTotal}</span> : null}
        {row.kept ? <span className="text-muted"> · {COPY.kept}</span> : null}
        {row.test ? (
          <span className="text-muted" data-testid="ledger-test">
            {" "}
            · {COPY.test}
          </span>
        ) : null}
        {row.flagged ? (
          <span className="font-bold text-signal" data-testid="ledger-flagged">
            {" "}
            · {COPY.flagged}
          </span>
        ) : null}
        {row.extra ? (
          <span className="font-bold text-signal" data-testid="ledger-extra">
            {" "}
            · {COPY.extra}
          </span>
        ) : null}
      </span>
      {row.extra ? (
        <Form method="post" className="justify-self-start">
          <input type="hidden" name="intent" value="keep" />
          <input type="hidden" name="provider" value={row.provider} />
          <input type="hidden" name="eventId" value={row.eventId} />
          <StatusButton pending={busy} pendingLabel={COPY.keeping} className="btn-small px-3">
            {COPY.keep}
          </StatusButton>
        </Form>
      ) : null}
    </li>
  );
}

function Unmatched({ payment }: { payment: LedgerRow }) {
  const busy = usePending("attach", payment.eventId);
  const refused = useActionData<typeof action>();
  const typed = refused && refused.typed.eventId === payment.eventId ? refused.typed.code : undefined;
  const id = `attach-${payment.provider}-${payment.eventId}`.replace(/[^\w-]/g, "_");
  return (
    <li className="card p-4" data-testid="payment">
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
        <dt className="text-muted">{COPY.kind}</dt>
        <dd>
          {COPY.kinds[payment.kind]}
          {payment.test ? ` · ${COPY.test}` : ""}
        </dd>
        <dt className="text-muted">{COPY.provider}</dt>
        <dd>{CONSOLE_COPY.providers[payment.provider]}</dd>
        <dt className="text-muted">{COPY.amount}</dt>
        <dd className="font-bold">{payment.money ?? COPY.none}</dd>
        <dt className="text-muted">{COPY.codeGiven}</dt>
        <dd className="break-all font-display">{payment.code ?? COPY.none}</dd>
        <dt className="text-muted">{COPY.reference}</dt>
        <dd className="break-all">{payment.reference ?? COPY.none}</dd>
        <dt className="text-muted">{COPY.received}</dt>
        <dd>
          <LocalTime iso={payment.receivedAt} />
        </dd>
      </dl>
      <Form method="post" className="mt-3 flex flex-wrap items-end gap-2 border-t border-line pt-3">
        <input type="hidden" name="intent" value="attach" />
        <input type="hidden" name="provider" value={payment.provider} />
        <input type="hidden" name="eventId" value={payment.eventId} />
        <div>
          <label className="label" htmlFor={id}>
            {COPY.attachTo}
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
        <StatusButton pending={busy} pendingLabel={COPY.attaching} className="btn-primary">
          {COPY.attach}
        </StatusButton>
      </Form>
    </li>
  );
}
