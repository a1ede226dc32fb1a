// Load: autocannon runs, open and closed loops of requests, and the transmit pools and step.
import os from "node:os";
import autocannon from "autocannon";
import { ACCEPT_ENCODING, sleep, now } from "./common.js";
import { Jar, newAgent, request, expectStatus } from "./http.js";
import { orderCodeIn, decodeDeckCookie, transmittedTo } from "./seeding.js";
import { percentile } from "./stats.js";

export function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ ...opts, headers: { "accept-encoding": ACCEPT_ENCODING, ...opts.headers } }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

/**
 * GET load with autocannon: warm-up, then a measured run. Every answer other than
 * `expect` (200) counts as an error, as do socket errors and timeouts.
 */
export async function cannonGet({ base, path: p, cookie, connections, warmupS, durationS, onPhase }) {
  const opts = { url: base + p, connections, headers: cookie ? { cookie } : {}, timeout: 10 };
  onPhase?.("warm-up");
  await cannon({ ...opts, duration: warmupS });
  onPhase?.("measure");
  const r = await cannon({ ...opts, duration: durationS });
  const total = r.requests.total;
  const seconds = r.duration;
  return {
    requests: total,
    seconds,
    rps: total / seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors + r.timeouts + r.non2xx,
    bytesPerReq: total ? r.throughput.total / total : 0,
    load1: os.loadavg()[0],
  };
}

/**
 * GET load in an open loop with autocannon's overallRate: `rate` requests per second
 * whatever the answers (as long as one of the `connections` is free), after a warm-up at
 * the same rate. Latency is measured from each request's send.
 */
export async function cannonRate({ base, path: p, cookie, connections, rate, warmupS, durationS }) {
  const opts = { url: base + p, connections, overallRate: rate, headers: cookie ? { cookie } : {}, timeout: 10 };
  await cannon({ ...opts, duration: warmupS });
  const r = await cannon({ ...opts, duration: durationS });
  return {
    requests: r.requests.total,
    seconds: r.duration,
    asked: rate,
    // The answers autocannon counted in its run: the rate achieved, not the rate asked.
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors + r.timeouts + r.non2xx,
    load1: os.loadavg()[0],
  };
}

/**
 * The rate achieved in a window of an open loop, counted as answers: the answers that came
 * back in [fromMs, toMs) (times from now()), per second. A server that keeps up answers as
 * many as were asked; one that falls behind answers fewer, and the rest queue past the window.
 * For loads whose steps are several requests in a row (the shopper mix's visits).
 */
export function achievedRate(doneTimes, fromMs, toMs) {
  let n = 0;
  for (const t of doneTimes) if (t >= fromMs && t < toMs) n++;
  return n / ((toMs - fromMs) / 1000);
}

/**
 * The rate achieved by the steps scheduled in [fromMs, toMs): those answered (their answer
 * times in doneTimes) per second of the time it took to answer them all, at least the window.
 * It is never more than the rate asked, and a queue (a backlog from before the window
 * included) stretches the time. For loads of single scheduled steps (webhooks, edits).
 */
export function scheduledRate(doneTimes, fromMs, toMs) {
  const last = doneTimes.reduce((a, t) => Math.max(a, t), toMs);
  return doneTimes.length / ((last - fromMs) / 1000);
}

/** Whether a load asked at `asked`/s was carried: at least `share` of it achieved. */
export const carried = (achieved, asked, share) => achieved >= asked * share;

/**
 * An open loop: step(i) starts every 1/rate s on schedule, on a free client i (of
 * `clients`). Latency counts from the scheduled start, so a queue behind a slow answer
 * shows in it (no coordinated omission). A tick that finds every client busy waits for
 * one; the wait is part of its latency. `asked` is the rate, `rps` the rate achieved:
 * the steps answered, per second of the time they took (scheduledRate).
 */
export async function openLoop({ clients, rate, durationMs, step }) {
  const free = Array.from({ length: clients }, (_, i) => i);
  const waiting = [];
  const take = () => (free.length ? Promise.resolve(free.pop()) : new Promise((r) => waiting.push(r)));
  const give = (i) => (waiting.length ? waiting.shift()(i) : free.push(i));
  const latencies = [];
  const done = [];
  const errorSamples = [];
  let errors = 0;
  const started = now();
  const jobs = [];
  for (let k = 0; ; k++) {
    const at = started + (k * 1000) / rate;
    if (at - started >= durationMs) break;
    const wait = at - now();
    if (wait > 0) await sleep(wait);
    jobs.push(
      take().then(async (i) => {
        try {
          const r = await step(i);
          if (r.ok) {
            const end = now();
            latencies.push(end - at);
            done.push(end);
          } else {
            errors++;
            if (errorSamples.length < 5) errorSamples.push(r.error ?? "unexpected answer");
          }
        } catch (e) {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(e.message);
        } finally {
          give(i);
        }
      }),
    );
  }
  await Promise.all(jobs);
  const seconds = (now() - started) / 1000;
  const achieved = scheduledRate(done, started, started + durationMs);
  return { ...loopMeasure(jobs.length, seconds, latencies, errors, errorSamples), asked: rate, rps: achieved };
}

/** A loop's measure: its rate, its latencies' p50, p99 and max, its errors, and the machine's load at its end. */
function loopMeasure(requests, seconds, latencies, errors, errorSamples) {
  latencies.sort((a, b) => a - b);
  return {
    requests,
    seconds,
    rps: requests / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
    errors,
    errorSamples,
    load1: os.loadavg()[0],
  };
}

/**
 * A closed loop of `workers` virtual clients, each calling step(i) until the time is
 * up (or step returns null: nothing left to do). step resolves {ok, ms}.
 */
export async function closedLoop({ workers, durationMs, step }) {
  const latencies = [];
  const byKind = {};
  let errors = 0;
  let done = 0;
  const errorSamples = [];
  const started = now();
  const until = started + durationMs;
  let lastEnd = started;
  await Promise.all(
    Array.from({ length: workers }, async (_, i) => {
      while (now() < until) {
        let r;
        try {
          r = await step(i);
        } catch (e) {
          r = { ok: false, ms: NaN, error: e.message };
        }
        if (r === null) break;
        lastEnd = now();
        done++;
        if (r.ok) {
          latencies.push(r.ms);
          if (r.kind) (byKind[r.kind] ??= []).push(r.ms);
        } else {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(r.error ?? "unexpected answer");
        }
      }
    }),
  );
  const seconds = (lastEnd - started) / 1000;
  const kinds = {};
  for (const [kind, list] of Object.entries(byKind)) {
    list.sort((a, b) => a - b);
    kinds[kind] = { count: list.length, p50: percentile(list, 50), p99: percentile(list, 99) };
  }
  return { kinds, ...loopMeasure(done, seconds, latencies, errors, errorSamples) };
}
// ---- Transmit ---------------------------------------------------------------------

/**
 * Deck cookies with fresh order codes, generated through POST /review
 * intent=generate-code from each client's current deck (a code per cookie).
 */
export async function transmitPools(base, clients, perClient, maxMs) {
  const agent = newAgent(clients.length);
  const until = now() + maxMs;
  const pools = await Promise.all(
    clients.map(async (c) => {
      const cookie = c.jar.header(["mixtape-auth", "mixtape-deck"]);
      const pool = [];
      while (pool.length < perClient && now() < until) {
        const res = await request(base, {
          method: "POST",
          path: "/review",
          form: { intent: "generate-code" },
          headers: { cookie },
          agent,
        });
        if (res.status !== 303) throw new Error(`generate-code answered ${res.status}`);
        const deck = new Jar().update(res.setCookies).get("mixtape-deck");
        const code = decodeDeckCookie(deck).code;
        pool.push({ code, cookie: `mixtape-auth=${c.jar.get("mixtape-auth")}; mixtape-deck=${deck}` });
      }
      return pool;
    }),
  );
  // The code read from the cookie is the one the review dialog shows.
  const sample = pools[0][0];
  const review = await expectStatus(base, { path: "/review", headers: { cookie: sample.cookie }, agent }, 200);
  if (orderCodeIn(review.body) !== sample.code) throw new Error("the decoded order code differs from the one on /review");
  agent.destroy();
  return pools;
}

export function transmitStep(base, pools, agent, ledger) {
  return async (i) => {
    const item = pools[i].pop();
    if (!item) return null;
    const started = now();
    let res;
    try {
      res = await request(base, {
        method: "POST",
        path: "/review",
        form: { intent: "transmit", code: item.code },
        headers: { cookie: item.cookie },
        agent,
      });
    } catch (e) {
      ledger.failed.push(item.code);
      return { ok: false, error: e.message };
    }
    if (res.status === 303 && transmittedTo(res.headers.location, item.code)) {
      ledger.ok.push(item.code);
      return { ok: true, ms: now() - started };
    }
    ledger.failed.push(item.code);
    return { ok: false, error: `transmit answered ${res.status}` };
  };
}
