// Every number is counted in SQL (public.shop_insights); this only shapes it for the page.
import { findDesign, findSong, NO_DESIGN_COLOUR, type Catalogue } from "./catalogue";
import { DUE_DAYS } from "./orders";

export const INSIGHTS_WEEKS = 12;
export const TURNAROUND_DAYS = 30;

export type WeekCount = { week: string; orders: number; cancelled: number };
export type CurrencyRevenue = { currency: string; total: number; payments: number; weeks: { week: string; amount: number }[] };
export type SongPicks = { id: string; title: string; picks: number };
/** colour: one of its art's own (NO_DESIGN_COLOUR for none), for the chart. */
export type DesignShare = { id: string | null; name: string; colour: string; orders: number; share: number };
export type Turnaround = { sent: number; median: number | null; p90: number | null; over: number; promise: number };

export type Insights = {
  /** Monday 00:00 UTC of each week, oldest first. */
  weeks: WeekCount[];
  revenue: CurrencyRevenue[];
  unpriced: number;
  songs: SongPicks[];
  designs: DesignShare[];
  turnaround: Turnaround;
  open: number;
  late: number;
};

const count = (v: unknown) => {
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : 0;
};
const days = (v: unknown) => (v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v));
const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === "object") : [];
const iso = (v: unknown) => {
  const d = typeof v === "string" || v instanceof Date ? new Date(v) : null;
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : null;
};

/** Names and colours are the catalogue's now (a song or design renamed since shows its new name). */
export function readInsights(raw: Record<string, unknown>, catalogue: Catalogue): Insights {
  const weeks = list(raw.weeks).flatMap((w) => {
    const week = iso(w.week);
    return week ? [{ week, orders: count(w.orders), cancelled: count(w.cancelled) }] : [];
  });
  const byCurrency = new Map<string, Map<string, { amount: number; payments: number }>>();
  for (const r of list(raw.revenue)) {
    const week = iso(r.week);
    const currency = typeof r.currency === "string" && /^[A-Z]{3}$/.test(r.currency) ? r.currency : null;
    if (!week || !currency) continue;
    const weeksOf = byCurrency.get(currency) ?? new Map();
    // Net of refunds: a week may give back more than it took.
    const amount = Number(r.amount);
    weeksOf.set(week, { amount: Number.isSafeInteger(amount) ? amount : 0, payments: count(r.payments) });
    byCurrency.set(currency, weeksOf);
  }
  const revenue = [...byCurrency].map(([currency, weeksOf]) => {
    const values = [...weeksOf.values()];
    return {
      currency,
      total: values.reduce((sum, v) => sum + v.amount, 0),
      payments: values.reduce((sum, v) => sum + v.payments, 0),
      weeks: weeks.map(({ week }) => ({ week, amount: weeksOf.get(week)?.amount ?? 0 })),
    };
  });
  revenue.sort((a, b) => b.payments - a.payments || a.currency.localeCompare(b.currency));
  const songs = list(raw.songs).flatMap((s) => {
    if (typeof s.id !== "string") return [];
    const title = findSong(catalogue, s.id)?.title ?? s.id;
    return [{ id: s.id, title, picks: count(s.picks) }];
  });
  const designRows = list(raw.designs).map((d) => {
    const design = typeof d.design === "string" ? findDesign(catalogue, d.design) : undefined;
    return { id: design?.id ?? null, orders: count(d.orders) };
  });
  // Unknown designs count with "none": the cover the shopper ended up with.
  const merged = new Map<string | null, number>();
  for (const d of designRows) merged.set(d.id, (merged.get(d.id) ?? 0) + d.orders);
  const placed = [...merged.values()].reduce((a, b) => a + b, 0);
  const designs = [...merged]
    .map(([id, orders]) => {
      const design = findDesign(catalogue, id);
      return {
        id,
        name: design?.name ?? "",
        colour: design?.colour ?? NO_DESIGN_COLOUR,
        orders,
        share: placed ? orders / placed : 0,
      };
    })
    .sort((a, b) => b.orders - a.orders || String(a.id).localeCompare(String(b.id)));
  const t = raw.turnaround && typeof raw.turnaround === "object" ? (raw.turnaround as Record<string, unknown>) : {};
  return {
    weeks,
    revenue,
    unpriced: count(raw.unpriced),
    songs,
    designs,
    turnaround: { sent: count(t.sent), median: days(t.median), p90: days(t.p90), over: count(t.over), promise: DUE_DAYS },
    open: count(raw.open),
    late: count(raw.late),
  };
}

const WEEK = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

export const weekLabel = (iso: string) => WEEK.format(new Date(iso));

export const formatDays = (value: number) => (Math.round(value * 10) / 10).toFixed(1);

export const formatShare = (share: number) => `${Math.round(share * 100)}%`;
