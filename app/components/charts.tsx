// The summary is each chart's text alternative; drawings are 340 units wide so they read at 360 px.
import { scaleBand, scaleLinear } from "d3-scale";
import { arc, area, line, pie, type PieArcDatum } from "d3-shape";
import type { ReactNode } from "react";
import { CONSOLE_COPY } from "~/domain/copy-console";
import { majorUnits } from "~/domain/money";
import {
  formatDays,
  formatShare,
  weekLabel,
  type CurrencyRevenue,
  type DesignShare,
  type SongPicks,
  type Turnaround,
  type WeekCount,
} from "~/domain/insights";

const T = CONSOLE_COPY.insights;
const W = 340;

export function Chart({
  id,
  title,
  summary,
  drawing,
  table,
}: {
  id: string;
  title: string;
  summary: ReactNode;
  drawing: ReactNode | null;
  table: ReactNode | null;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="card min-w-0 p-4" data-testid={`chart-${id}`}>
      <h2 id={`${id}-title`} className="font-display text-lg font-bold uppercase tracking-wider text-acid">
        {title}
      </h2>
      <p id={`${id}-summary`} className="mt-1 text-sm text-muted">
        {summary}
      </p>
      {drawing ? <div className="mt-3">{drawing}</div> : null}
      {table ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-bold text-muted hover:text-cream">{T.showData}</summary>
          <div className="mt-2 overflow-x-auto">{table}</div>
        </details>
      ) : null}
    </section>
  );
}

function Drawing({ id, height, children }: { id: string; height: number; children: ReactNode }) {
  return (
    <svg
      viewBox={`0 0 ${W} ${height}`}
      role="img"
      aria-labelledby={`${id}-title ${id}-summary`}
      className="h-auto w-full max-w-md"
      fontFamily="system-ui, sans-serif"
    >
      {children}
    </svg>
  );
}

export function DataTable({ caption, head, rows }: { caption: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <table className="w-full border-collapse text-left">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          {head.map((h, i) => (
            <th key={h} scope="col" className={`border-b border-line py-1 pr-3 ${i ? "text-right" : ""}`}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([first, ...rest], r) => (
          <tr key={`${first}-${r}`}>
            <th scope="row" className="border-b border-line/50 py-1 pr-3 font-normal">
              {first}
            </th>
            {rest.map((cell, c) => (
              <td key={c} className="border-b border-line/50 py-1 pr-3 text-right tabular-nums">
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const M = { top: 12, right: 8, bottom: 28, left: 38 };

function YAxis({
  y,
  values,
  format = String,
}: {
  y: ReturnType<typeof scaleLinear<number>>;
  values: number[];
  format?: (v: number) => string;
}) {
  return (
    <g>
      {values.map((t) => (
        <g key={t}>
          <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} className="stroke-line" strokeWidth={0.5} />
          <text x={M.left - 4} y={y(t)} dy="0.32em" textAnchor="end" fontSize={11} className="fill-muted">
            {format(t)}
          </text>
        </g>
      ))}
    </g>
  );
}

function WeekAxis({ weeks, x, height }: { weeks: string[]; x: (week: string) => number; height: number }) {
  const last = weeks.length - 1;
  return (
    <g>
      {weeks.map((week, i) =>
        (last - i) % 2 === 0 ? (
          <text key={week} x={x(week)} y={height - 8} textAnchor="middle" fontSize={11} className="fill-muted">
            {weekLabel(week)}
          </text>
        ) : null,
      )}
    </g>
  );
}

export function OrdersChart({ id, weeks }: { id: string; weeks: WeekCount[] }) {
  const H = 190;
  const keys = weeks.map((w) => w.week);
  const x = scaleBand<string>()
    .domain(keys)
    .range([M.left, W - M.right])
    .paddingInner(0.25)
    .paddingOuter(0.1);
  const pair = scaleBand<"orders" | "cancelled">().domain(["orders", "cancelled"]).range([0, x.bandwidth()]).padding(0.08);
  const max = Math.max(1, ...weeks.map((w) => Math.max(w.orders, w.cancelled)));
  const y = scaleLinear()
    .domain([0, max])
    .nice()
    .range([H - M.bottom, M.top]);
  return (
    <Drawing id={id} height={H + 18}>
      <YAxis y={y} values={y.ticks(4).filter((t) => Number.isInteger(t))} />
      {weeks.map((w) => (
        <g key={w.week} data-week={w.week} data-testid="week-bars">
          {(["orders", "cancelled"] as const).map((k) => (
            <rect
              key={k}
              x={(x(w.week) ?? 0) + (pair(k) ?? 0)}
              y={y(w[k])}
              width={pair.bandwidth()}
              height={Math.max(0, y(0) - y(w[k]))}
              className={k === "orders" ? "fill-acid" : "fill-magenta"}
            >
              <title>{`${T.week} ${weekLabel(w.week)}: ${k === "orders" ? T.orders : T.cancelled} ${w[k]}`}</title>
            </rect>
          ))}
        </g>
      ))}
      <WeekAxis weeks={keys} x={(k) => (x(k) ?? 0) + x.bandwidth() / 2} height={H} />
      <Legend
        y={H + 6}
        items={[
          { label: T.orders, className: "fill-acid" },
          { label: T.cancelled, className: "fill-magenta" },
        ]}
      />
    </Drawing>
  );
}

function Legend({ y, items }: { y: number; items: { label: string; className: string }[] }) {
  return (
    <g>
      {items.map((item, i) => (
        <g key={item.label} transform={`translate(${M.left + i * 100}, ${y})`}>
          <rect width={10} height={10} y={-9} className={item.className} />
          <text x={14} fontSize={11} className="fill-cream">
            {item.label}
          </text>
        </g>
      ))}
    </g>
  );
}

const compact = new Map<string, Intl.NumberFormat>();
function compactMoney(major: number, currency: string) {
  let format = compact.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      notation: "compact",
      minimumFractionDigits: 0,
      maximumFractionDigits: 1,
    });
    compact.set(currency, format);
  }
  return format.format(major);
}

export function RevenueChart({ id, revenue }: { id: string; revenue: CurrencyRevenue }) {
  const H = 170;
  const points = revenue.weeks.map((w) => ({ week: w.week, value: Number(majorUnits(w.amount, revenue.currency)) }));
  const keys = points.map((p) => p.week);
  const x = scaleBand<string>()
    .domain(keys)
    .range([M.left + 4, W - M.right])
    .padding(0.5);
  const mid = (week: string) => (x(week) ?? 0) + x.bandwidth() / 2;
  const y = scaleLinear()
    .domain([Math.min(0, ...points.map((p) => p.value)), Math.max(1, ...points.map((p) => p.value))])
    .nice()
    .range([H - M.bottom, M.top]);
  const toPath = line<(typeof points)[number]>()
    .x((p) => mid(p.week))
    .y((p) => y(p.value));
  const fill = area<(typeof points)[number]>()
    .x((p) => mid(p.week))
    .y0(y(0))
    .y1((p) => y(p.value));
  return (
    <Drawing id={id} height={H}>
      <YAxis y={y} values={y.ticks(4)} format={(v) => compactMoney(v, revenue.currency)} />
      <path d={fill(points) ?? ""} className="fill-teal/25" />
      <path d={toPath(points) ?? ""} className="stroke-teal" fill="none" strokeWidth={2} />
      {points.map((p) => (
        <circle key={p.week} cx={mid(p.week)} cy={y(p.value)} r={2.5} className="fill-teal">
          <title>{`${T.week} ${weekLabel(p.week)}: ${compactMoney(p.value, revenue.currency)}`}</title>
        </circle>
      ))}
      <WeekAxis weeks={keys} x={mid} height={H} />
    </Drawing>
  );
}

export function SongsChart({ id, songs }: { id: string; songs: SongPicks[] }) {
  const row = 34;
  const H = songs.length * row + 4;
  const max = Math.max(1, ...songs.map((s) => s.picks));
  const x = scaleLinear()
    .domain([0, max])
    .range([0, W - 44]);
  return (
    <Drawing id={id} height={H}>
      {songs.map((s, i) => (
        <g key={s.id} transform={`translate(0, ${i * row})`}>
          <text x={0} y={13} fontSize={13} className="fill-cream">
            {`${i + 1}. ${s.title}`}
          </text>
          <rect x={0} y={18} width={Math.max(2, x(s.picks))} height={10} rx={2} className="fill-acid" />
          <text x={x(s.picks) + 6} y={28} fontSize={12} className="fill-muted">
            {s.picks}
          </text>
        </g>
      ))}
    </Drawing>
  );
}

/** Each design in a colour of its own art (its row's colour), so the chart reads like the covers. */
export function DesignsChart({ id, designs }: { id: string; designs: DesignShare[] }) {
  const H = Math.max(150, designs.length * 22 + 20);
  const r = 58;
  const slices = pie<DesignShare>()
    .value((d) => d.orders)
    .sort(null)(designs);
  const ring = arc<PieArcDatum<DesignShare>>()
    .innerRadius(r * 0.55)
    .outerRadius(r);
  return (
    <Drawing id={id} height={H}>
      <g transform={`translate(${r + 8}, ${H / 2})`}>
        {slices.map((s) => (
          <path
            key={String(s.data.id)}
            d={ring(s) ?? ""}
            fill={s.data.colour}
            className="stroke-panel"
            strokeWidth={1.5}
            data-testid="design-slice"
            data-design={s.data.id ?? "none"}
          >
            <title>{`${s.data.name || T.noDesign}: ${formatShare(s.data.share)}`}</title>
          </path>
        ))}
      </g>
      {designs.map((d, i) => (
        <g
          key={String(d.id)}
          transform={`translate(${2 * r + 22}, ${H / 2 - (designs.length * 22) / 2 + i * 22 + 14})`}
          data-testid="design-legend"
        >
          <rect width={11} height={11} y={-10} fill={d.colour} />
          <text x={16} fontSize={12} className="fill-cream">
            {`${d.name || T.noDesign} ${formatShare(d.share)}`}
          </text>
        </g>
      ))}
    </Drawing>
  );
}

export function TurnaroundChart({ id, turnaround }: { id: string; turnaround: Turnaround }) {
  const H = 130;
  const left = 104;
  const bars = [
    { label: T.median, value: turnaround.median ?? 0 },
    { label: T.p90, value: turnaround.p90 ?? 0 },
  ];
  const x = scaleLinear()
    .domain([0, Math.max(turnaround.promise + 1, ...bars.map((b) => b.value * 1.15))])
    .nice()
    .range([left, W - M.right - 4]);
  const promise = x(turnaround.promise);
  return (
    <Drawing id={id} height={H}>
      {x.ticks(5).map((t) => (
        <text key={t} x={x(t)} y={H - 6} textAnchor="middle" fontSize={11} className="fill-muted">
          {t}
        </text>
      ))}
      {bars.map((b, i) => (
        <g key={b.label} transform={`translate(0, ${22 + i * 38})`}>
          <text x={left - 6} y={13} textAnchor="end" fontSize={11} className="fill-cream">
            {b.label}
          </text>
          <rect
            x={left}
            y={2}
            width={Math.max(1, x(b.value) - left)}
            height={14}
            rx={2}
            className={b.value > turnaround.promise ? "fill-danger" : "fill-teal"}
          />
          <text x={x(b.value) + 4} y={14} fontSize={11} className="fill-cream">
            {T.days(formatDays(b.value))}
          </text>
        </g>
      ))}
      <line x1={promise} x2={promise} y1={14} y2={H - 20} className="stroke-acid" strokeWidth={1.5} strokeDasharray="4 3" />
      <text x={promise} y={10} textAnchor="middle" fontSize={11} className="fill-acid">
        {T.promise(turnaround.promise)}
      </text>
    </Drawing>
  );
}
