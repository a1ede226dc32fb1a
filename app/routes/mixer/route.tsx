import { Fragment } from "react";
import { Form, Link, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/route";
import { PreviewProvider } from "~/components/previews";
import { CONSOLE_COPY } from "~/domain/copy-console";
import {
  cardOfAnswerPlace,
  filterScope,
  QUEUE_FILTERS,
  queueSearch,
  readQueueQuery,
  type QueueCounts,
  type QueueQuery,
} from "~/domain/queue";
import { useRootData } from "~/root";
import { readForm } from "~/server/platform/http.server";
import { mixerInbox } from "~/server/services/conversation.server";
import { queueCounts, queuePage, requireMixer, type QueuePage } from "~/server/services/mixer.server";
import { consoleAction } from "./console-action.server";
import { ConsoleNav } from "./console-nav";
import { CardAnswer } from "~/components/card-answer";
import { OrderCard } from "./order-card";
import { GeneralErrorBoundary } from "~/components/error-boundary";

// An error here keeps the page's header and footer.
export const ErrorBoundary = () => <GeneralErrorBoundary />;

export const meta: Route.MetaFunction = () => [{ title: CONSOLE_COPY.title }];

export async function loader({ url, context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  const query = readQueueQuery(url.searchParams);
  const [page, inbox, counts] = await Promise.all([queuePage(api, query), mixerInbox(api), queueCounts(api, query)]);
  return { query, page, inbox, counts };
}

/** Start Mixing, Mark Sent, Mark Paid, Cancel Order, Mark Refunded: POST/redirect/GET back to the same page, or data for fetchers. */
export async function action({ url, request, context }: Route.ActionArgs) {
  const { api } = requireMixer(context);
  const query = readQueueQuery(url.searchParams);
  const back = queueSearch(query, query);
  // No fragment: the card's answer takes the focus (autofocus, which a fragment blocks), and so comes into view.
  return consoleAction(context, api, await readForm(request), () => `/mixer${back}`, { inCard: true });
}

// After a refused change the queue is read again: another mixer may have moved the order.
export const shouldRevalidate: ShouldRevalidateFunction = ({ defaultShouldRevalidate, actionStatus }) =>
  defaultShouldRevalidate || actionStatus === 409;

export default function MixerConsole({ loaderData, actionData }: Route.ComponentProps) {
  const { query, page, inbox, counts } = loaderData;
  const { orders } = page;
  const search = queueSearch(query, query);
  const refused = actionData && !actionData.ok ? actionData.values : null;
  // The last action's answer, shown in its card, or where the card stood if the action moved it off this list.
  const toast = useRootData()?.toast;
  const answered = toast ? cardOfAnswerPlace(toast.place) : null;
  const answer = answered && toast ? { code: answered, message: toast.message, before: toast.before ?? null } : null;
  const moved = answer && !orders.some((o) => o.code === answer.code) ? answer : null;
  const movedAt = moved ? orders.findIndex((o) => o.code === moved.before) : -1;
  return (
    <section aria-labelledby="mixer-heading" className="space-y-3 sm:space-y-5">
      <ConsoleNav inbox={inbox} />
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
        <h1 id="mixer-heading" className="font-display text-xl font-bold uppercase tracking-wider text-acid sm:text-2xl">
          {CONSOLE_COPY.title}
        </h1>
        <a
          href={`/mixer/orders.csv${queueSearch(query)}`}
          download="orders.csv"
          className="btn-ghost min-h-9 py-1 sm:min-h-11 sm:py-2"
        >
          {CONSOLE_COPY.exportCsv}
        </a>
      </div>
      <Filters query={query} counts={counts} />
      <Form method="get" action="/mixer" className="flex flex-wrap items-end gap-2" role="search">
        {query.filter !== "all" ? <input type="hidden" name="filter" value={query.filter} /> : null}
        <label htmlFor="order-code-search" className="sr-only">
          {CONSOLE_COPY.search}
        </label>
        <input
          id="order-code-search"
          name="q"
          defaultValue={query.code ?? ""}
          maxLength={8}
          autoComplete="off"
          spellCheck={false}
          placeholder={CONSOLE_COPY.search}
          className="field w-48 font-display uppercase tracking-widest placeholder:normal-case placeholder:tracking-normal"
          aria-describedby={query.invalidCode ? "search-problem" : undefined}
        />
        <button type="submit" className="btn-ghost">
          {CONSOLE_COPY.searchButton}
        </button>
      </Form>
      {query.invalidCode ? (
        <p id="search-problem" role="alert" className="rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm">
          {CONSOLE_COPY.searchInvalid}
        </p>
      ) : null}
      {orders.length === 0 && !moved ? null : (
        <PreviewProvider>
          <ol className="space-y-4" data-testid="queue">
            {orders.map((order, i) => (
              <Fragment key={order.id}>
                {moved && movedAt === i ? <MovedCard {...moved} /> : null}
                <OrderCard
                  order={order}
                  search={search}
                  refused={refused?.code === order.code ? refused : null}
                  unread={inbox.byCode[order.code] ?? 0}
                  next={orders[i + 1]?.code ?? null}
                  answer={answer?.code === order.code ? answer.message : null}
                />
              </Fragment>
            ))}
            {moved && movedAt === -1 ? <MovedCard {...moved} /> : null}
          </ol>
        </PreviewProvider>
      )}
      {orders.length === 0 ? (
        <p className="card p-6 text-muted" data-testid="queue-empty">
          {CONSOLE_COPY.empty}
        </p>
      ) : null}
      <Pages query={query} page={page} />
    </section>
  );
}

/** An order an action moved off this list: its answer stays where it stood, and the page does not jump. */
function MovedCard({ code, message }: { code: string; message: string }) {
  return (
    <li id={`order-${code}`} className="card scroll-mt-24 border-dashed p-4" data-testid="queue-moved">
      <CardAnswer answer={message} />
      <p className="mt-2 text-sm">
        <Link to={`/mixer/orders/${code}`} className="font-bold text-acid underline underline-offset-4">
          {CONSOLE_COPY.openOrder(code)}
        </Link>
      </p>
    </li>
  );
}

/** One row that scrolls sideways on a phone, so the first order is on the first screen; each filter says how many it holds. */
function Filters({ query, counts }: { query: QueueQuery; counts: QueueCounts | null }) {
  return (
    <nav aria-label={CONSOLE_COPY.filtersLabel} className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:overflow-visible sm:px-0">
      <ul className="flex gap-2 sm:flex-wrap">
        {QUEUE_FILTERS.map((filter) => {
          const current = filter === query.filter;
          return (
            <li key={filter} className="shrink-0">
              <Link
                to={`/mixer${queueSearch({ filter, code: query.code })}`}
                aria-current={current ? "page" : undefined}
                className={current ? "btn-primary px-3" : "btn-ghost px-3"}
              >
                {CONSOLE_COPY.filters[filter]}{" "}
                {counts ? (
                  <span
                    className={`rounded-full px-1.5 text-xs tabular-nums ${current ? "bg-ink text-cream" : "bg-panel-2"}`}
                    data-testid="filter-count"
                  >
                    {counts[filter]}
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** Plain links with the neighbouring page's cursor: the list's order decides which way is newer. */
function Pages({ query, page }: { query: QueueQuery; page: QueuePage }) {
  if (!page.before && !page.after) return null;
  const newestFirst = filterScope(query.filter).newestFirst;
  const link = (to: { after: string } | { before: string }, label: string, rel: "prev" | "next") => (
    <Link
      to={`/mixer${queueSearch(query, { after: null, before: null, ...to })}`}
      className="btn-ghost"
      rel={rel}
      data-testid={`queue-${rel}`}
    >
      {label}
    </Link>
  );
  return (
    <nav aria-label={CONSOLE_COPY.pages} className="flex items-center justify-between gap-3">
      {page.before ? link({ before: page.before }, newestFirst ? CONSOLE_COPY.newer : CONSOLE_COPY.older, "prev") : <span />}
      {page.after ? link({ after: page.after }, newestFirst ? CONSOLE_COPY.older : CONSOLE_COPY.newer, "next") : <span />}
    </nav>
  );
}
