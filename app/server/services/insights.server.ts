// The mixer's insights: one aggregate query (public.shop_insights), never the orders themselves.
import { INSIGHTS_WEEKS, readInsights, TURNAROUND_DAYS, type Insights } from "~/domain/insights";
import { DUE_DAYS } from "~/domain/orders";
import type { Catalogue } from "~/domain/catalogue";
import type { BackendRequest } from "../backend/port.server";
import { getLog } from "../platform/log.server";

/** catalogue: the names and colours the songs and designs have now. */
export async function shopInsights(api: BackendRequest, catalogue: Promise<Catalogue>): Promise<Insights> {
  const [{ insights, error }, names] = await Promise.all([
    api.insights({ weeks: INSIGHTS_WEEKS, dueDays: DUE_DAYS, turnaroundDays: TURNAROUND_DAYS }),
    catalogue,
  ]);
  if (error || !insights) {
    getLog().error({ code: error?.code, err: error?.message }, "insights: load failed");
    throw new Response(null, { status: 500 });
  }
  return readInsights(insights, names);
}
