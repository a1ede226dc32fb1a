// The stock React Router page (bench/baseline) as the floor of the budgets of speed, measured in
// the same run as the app: its start-up (the median of as many starts as the app's), and its form
// POST's rate (the floor of transmit). Its GET is measured beside each page (throughput.js) and its
// Lighthouse run beside the app's pages (lighthouse.js).
import { closedLoop, median, now, request, stopChild } from "../lib/index.js";
import { CFG, log } from "../lib/config.js";
import { startBaseline } from "./build.js";

/** The stock server started `starts` times (spawn → its page 200): the median; the last one stays up. */
export async function startStockPage(starts = CFG.starts) {
  const startups = [];
  let baseline;
  for (let i = 1; i <= starts; i++) {
    baseline = await startBaseline();
    startups.push(baseline.startupMs);
    log(`stock page start-up, ${i} of ${starts}: ${Math.round(baseline.startupMs)} ms`);
    if (i < starts) await stopChild(baseline.child);
  }
  return { baseline, startups, startupMs: median(startups) };
}

/** The stock page's form POST: its session read, a form parsed, the session committed, a 303. */
export function stockPostStep(baseline, agent) {
  const cookie = baseline.jar.header();
  return async () => {
    const started = now();
    const res = await request(baseline.base, {
      method: "POST",
      path: "/?index",
      form: { note: "a note on the order" },
      headers: { cookie, origin: baseline.base },
      agent,
    });
    return res.status === 303 ? { ok: true, ms: now() - started } : { ok: false, error: `the stock POST answered ${res.status}` };
  };
}

/** The stock POST's rate: as many closed-loop clients as the app's POST rows, after the same warm-up. */
export async function measureStockPost(baseline, agent) {
  const step = stockPostStep(baseline, agent);
  await closedLoop({ workers: CFG.connections, durationMs: Math.min(1, CFG.warmupS) * 1000, step });
  return closedLoop({ workers: CFG.connections, durationMs: CFG.durationS * 1000, step });
}
