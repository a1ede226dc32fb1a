import { Link } from "react-router";
import type { Route } from "./+types/insights";
import { Chart, DataTable, DesignsChart, OrdersChart, RevenueChart, SongsChart, TurnaroundChart } from "~/components/charts";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CONSOLE_COPY } from "~/domain/copy-console";
import { formatDays, formatShare, INSIGHTS_WEEKS, TURNAROUND_DAYS, weekLabel } from "~/domain/insights";
import { formatMoney } from "~/domain/money";
import { mixerInbox } from "~/server/services/conversation.server";
import { shopInsights } from "~/server/services/insights.server";
import { catalogueOf } from "~/server/services/catalogue.server";
import { requireMixer } from "~/server/services/mixer.server";
import { ConsoleNav } from "./console-nav";

const T = CONSOLE_COPY.insights;

export const ErrorBoundary = () => <GeneralErrorBoundary />;

export const meta: Route.MetaFunction = () => [{ title: T.title }];

export async function loader({ context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  const [insights, inbox] = await Promise.all([shopInsights(api, catalogueOf(context)), mixerInbox(api)]);
  return { insights, inbox };
}

export default function Insights({ loaderData }: Route.ComponentProps) {
  const { insights, inbox } = loaderData;
  const { weeks, revenue, songs, designs, turnaround } = insights;
  const placed = weeks.reduce((n, w) => n + w.orders + w.cancelled, 0);
  const cancelled = weeks.reduce((n, w) => n + w.cancelled, 0);
  return (
    <section aria-labelledby="insights-heading" className="space-y-5">
      <ConsoleNav inbox={inbox} />
      <div>
        <h1 id="insights-heading" className="font-display text-2xl font-bold uppercase tracking-wider text-acid">
          {T.title}
        </h1>
        <p className="mt-1 text-sm text-muted">{T.intro(INSIGHTS_WEEKS)}</p>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:max-w-md" data-testid="insights-now">
        <div className="card p-3">
          <dt className="text-sm text-muted">{T.openNow}</dt>
          <dd className="font-display text-2xl font-bold">{insights.open}</dd>
        </div>
        <div className={`card p-3 ${insights.late ? "border-danger" : ""}`}>
          <dt className="text-sm text-muted">{T.lateNow}</dt>
          <dd className="font-display text-2xl font-bold" data-testid="insights-late">
            {insights.late}
          </dd>
          {insights.late ? (
            <dd className="mt-1 text-sm">
              <Link to="/mixer?filter=late" className="text-acid underline">
                {T.showLate}
              </Link>
            </dd>
          ) : null}
        </div>
      </dl>
      <div className="grid gap-5 lg:grid-cols-2">
        <Chart
          id="orders"
          title={T.ordersTitle}
          summary={T.ordersSummary(placed, cancelled)}
          drawing={<OrdersChart id="orders" weeks={weeks} />}
          table={
            <DataTable
              caption={T.ordersTitle}
              head={[T.week, T.orders, T.cancelled]}
              rows={weeks.map((w) => [weekLabel(w.week), w.orders, w.cancelled])}
            />
          }
        />
        <Chart
          id="turnaround"
          title={T.turnaroundTitle}
          summary={
            <>
              {T.turnaroundSummary(TURNAROUND_DAYS, turnaround.promise)}{" "}
              {turnaround.sent ? T.overPromise(turnaround.over, turnaround.promise) : T.noneSent}
            </>
          }
          drawing={turnaround.sent ? <TurnaroundChart id="turnaround" turnaround={turnaround} /> : null}
          table={
            turnaround.sent ? (
              <DataTable
                caption={T.turnaroundTitle}
                head={[T.sentCount(turnaround.sent), T.daysHead]}
                rows={[
                  [T.median, formatDays(turnaround.median ?? 0)],
                  [T.p90, formatDays(turnaround.p90 ?? 0)],
                ]}
              />
            ) : null
          }
        />
        {revenue.length === 0 ? (
          <Chart id="revenue" title={T.revenueTitleAll} summary={T.noRevenue} drawing={null} table={null} />
        ) : (
          revenue.map((r) => (
            <Chart
              key={r.currency}
              id={`revenue-${r.currency}`}
              title={T.revenueTitle(r.currency)}
              summary={
                <>
                  {T.revenueSummary(formatMoney(r.total, r.currency) ?? "", r.payments)}
                  {insights.unpriced ? ` ${T.unpriced(insights.unpriced)}` : ""}
                </>
              }
              drawing={<RevenueChart id={`revenue-${r.currency}`} revenue={r} />}
              table={
                <DataTable
                  caption={T.revenueTitle(r.currency)}
                  head={[T.week, T.revenue]}
                  rows={r.weeks.map((w) => [weekLabel(w.week), formatMoney(w.amount, r.currency) ?? ""])}
                />
              }
            />
          ))
        )}
        <Chart
          id="designs"
          title={T.designsTitle}
          summary={designs.length ? designs.map((d) => `${d.name || T.noDesign} ${formatShare(d.share)}`).join(", ") : T.noSongs}
          drawing={designs.length ? <DesignsChart id="designs" designs={designs} /> : null}
          table={
            designs.length ? (
              <DataTable
                caption={T.designsTitle}
                head={[T.design, T.orders, T.share]}
                rows={designs.map((d) => [d.name || T.noDesign, d.orders, formatShare(d.share)])}
              />
            ) : null
          }
        />
        <Chart
          id="songs"
          title={T.songsTitle}
          summary={songs.length ? T.songsSummary : T.noSongs}
          drawing={songs.length ? <SongsChart id="songs" songs={songs} /> : null}
          table={
            songs.length ? (
              <DataTable
                caption={T.songsTitle}
                head={[T.song, T.picks]}
                rows={songs.map((s, i) => [`${i + 1}. ${s.title}`, s.picks])}
              />
            ) : null
          }
        />
      </div>
    </section>
  );
}
