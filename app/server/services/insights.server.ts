// The mixer's insights: one aggregate query (public.shop_insights), never the orders themselves.
import { INSIGHTS_WEEKS, readInsights, TURNAROUND_DAYS, type Insights } from "~/domain/insights";
import { DUE_DAYS } from "~/domain/orders";
import type { BackendRequest } from "../backend/port.server";
import { getLog } from "../platform/log.server";

export async function shopInsights(api: BackendRequest): Promise<Insights> {
  const { insights, error } = await api.insights({ weeks: INSIGHTS_WEEKS, dueDays: DUE_DAYS, turnaroundDays: TURNAROUND_DAYS });
  if (error || !insights) {
    getLog().error({ code: error?.code, err: error?.message }, "insights: load failed");
    throw new Response(null, { status: 500 });
  }
  return readInsights(insights);
}
