import { Form, Link, useLocation, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/route";
import { PreviewProvider } from "~/components/previews";
import { CONSOLE_COPY } from "~/domain/copy-console";
import { mixerAnchor } from "~/domain/intents";
import { QUEUE_FILTERS, queueSearch, readQueueQuery, type QueueQuery } from "~/domain/queue";
import { readForm } from "~/server/platform/http.server";
import { mixerInbox } from "~/server/services/conversation.server";
import { queuePage, requireMixer } from "~/server/services/mixer.server";
import { consoleAction } from "./console-action.server";
import { ConsoleNav } from "./console-nav";
import { OrderCard } from "./order-card";
import { GeneralErrorBoundary } from "~/components/error-boundary";

// An error here keeps the page's header and footer.
export const ErrorBoundary = () => <GeneralErrorBoundary />;

export const meta: Route.MetaFunction = () => [{ title: CONSOLE_COPY.title }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  const query = readQueueQuery(new URL(request.url).searchParams);
  return { query, ...(await queuePage(api, query)), inbox: await mixerInbox(api) };
}

/** Start Mixing, Mark Sent, Mark Paid, Cancel Order, Mark Refunded: POST/redirect/GET back to the same page, or data for fetchers. */
export async function action({ request, context }: Route.ActionArgs) {
  const { api } = requireMixer(context);
  const back = queueSearch(readQueueQuery(new URL(request.url).searchParams));
  return consoleAction(context, api, await readForm(request), (intent) => `/mixer${back}${mixerAnchor(intent)}`);
}

// After a refused change the queue is read again: another mixer may have moved the order.
export const shouldRevalidate: ShouldRevalidateFunction = ({ defaultShouldRevalidate, actionStatus }) =>
  defaultShouldRevalidate || actionStatus === 409;

export default function MixerConsole({ loaderData, actionData }: Route.ComponentProps) {
  const { query, orders, hasNext, inbox } = loaderData;
  const search = queueSearch(query);
  const refused = actionData && !actionData.ok ? actionData.values : null;
  return (
    <section aria-labelledby="mixer-heading" className="space-y-5">
      <ConsoleNav inbox={inbox} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="mixer-heading" className="font-display text-2xl font-bold uppercase tracking-wider text-acid">
          {CONSOLE_COPY.title}
        </h1>
        <a href={`/mixer/orders.csv${queueSearch({ ...query, page: 1 })}`} download="orders.csv" className="btn-ghost">
          {CONSOLE_COPY.exportCsv}
        </a>
      </div>
      <Filters query={query} />
      <Form method="get" action="/mixer" className="flex flex-wrap items-end gap-2" role="search">
        {query.filter !== "all" ? <input type="hidden" name="filter" value={query.filter} /> : null}
        <div>
          <label htmlFor="order-code-search" className="label">
            {CONSOLE_COPY.search}
          </label>
          <input
            id="order-code-search"
            name="q"
            defaultValue={query.code ?? ""}
            maxLength={8}
            autoComplete="off"
            spellCheck={false}
            className="field w-48 font-display uppercase tracking-widest"
            aria-describedby={query.invalidCode ? "search-problem" : undefined}
          />
        </div>
        <button type="submit" className="btn-ghost">
          {CONSOLE_COPY.searchButton}
        </button>
      </Form>
      {query.invalidCode ? (
        <p id="search-problem" role="alert" className="rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm">
          {CONSOLE_COPY.searchInvalid}
        </p>
      ) : null}
      {orders.length === 0 ? (
        <p className="card p-6 text-muted" data-testid="queue-empty">
          {CONSOLE_COPY.empty}
        </p>
      ) : (
        <PreviewProvider>
          <ol className="space-y-4" data-testid="queue">
            {orders.map((order) => (
              <OrderCard
                key={order.id}
                order={order}
                search={search}
                refused={refused?.code === order.code ? refused : null}
                unread={inbox.byCode[order.code] ?? 0}
              />
            ))}
          </ol>
        </PreviewProvider>
      )}
      <Pages query={query} hasNext={hasNext} />
    </section>
  );
}

function Filters({ query }: { query: QueueQuery }) {
  return (
    <nav aria-label={CONSOLE_COPY.filtersLabel}>
      <ul className="flex flex-wrap gap-2">
        {QUEUE_FILTERS.map((filter) => {
          const current = filter === query.filter;
          return (
            <li key={filter}>
              <Link
                to={`/mixer${queueSearch({ filter, code: query.code, page: 1 })}`}
                aria-current={current ? "page" : undefined}
                className={current ? "btn-primary" : "btn-ghost"}
              >
                {CONSOLE_COPY.filters[filter]}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function Pages({ query, hasNext }: { query: QueueQuery; hasNext: boolean }) {
  const { pathname } = useLocation();
  if (query.page === 1 && !hasNext) return null;
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-3">
      {query.page > 1 ? (
        <Link to={`${pathname}${queueSearch({ ...query, page: query.page - 1 })}`} className="btn-ghost">
          {CONSOLE_COPY.previous}
        </Link>
      ) : (
        <span />
      )}
      <span className="font-display text-sm text-muted">{CONSOLE_COPY.page(query.page)}</span>
      {hasNext ? (
        <Link to={`${pathname}${queueSearch({ ...query, page: query.page + 1 })}`} className="btn-ghost">
          {CONSOLE_COPY.next}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
