#!/usr/bin/env node
// Capacity for a mix of shoppers: virtual shoppers arrive in an open loop, each doing what a
// shopper does as a browser without JavaScript does it (every form a POST answered by a
// redirect, then the page it lands on): open /, add 3 songs, choose a design, set an option
// and a note, open the review, generate a code, transmit, open My Mixtapes and the order's
// page; 1 in 10 also logs out and in again (scrypt included). At each arrival rate: every
// request's latency (from its own send), the p99, and whether every order was stored once.
// `npm run bench` runs it; alone: node bench/mix.js [rates as requests/s, e.g. 150,250,350].
import { pathToFileURL } from "node:url";
import os from "node:os";
import fs from "node:fs";
import {
  freePort,
  mkTemp,
  newAgent,
  now,
  orderCodeIn,
  percentile,
  request,
  signUpShopper,
  sleep,
  startApp,
  stopChild,
} from "./lib.js";

export const P99_BUDGET_MS = 100;
const ACCOUNTS = 60;

/** One shopper's visit; every request's latency goes to `latencies`; resolves with the order code stored. */
async function visit(base, account, agent, latencies, n) {
  const jar = account.jar;
  const send = async (opts, expected) => {
    const res = await request(base, { ...opts, jar, agent, timeout: 10_000 });
    latencies.push(res.ms);
    if (!expected.includes(res.status)) throw new Error(`${opts.method ?? "GET"} ${opts.path}: ${res.status}`);
    return res;
  };
  const post = async (path, form) => {
    const res = await send({ method: "POST", path, form }, [302, 303]);
    return send({ path: res.headers.location }, [200]);
  };
  await send({ path: "/" }, [200]);
  for (const songId of [String(1 + (n % 10)), String(11 + (n % 10)), String(21 + (n % 10))])
    await post("/", { intent: "add", songId });
  await post("/", { intent: "design", designId: "ice-cold" });
  await post("/", { intent: "options", djIntro: "on", note: `Visit ${n}` });
  await send({ path: "/review" }, [200]);
  const review = await post("/review", { intent: "generate-code" });
  const code = orderCodeIn(review.body);
  if (!code) throw new Error("no order code in the review");
  await post("/review", { intent: "transmit", code });
  await send({ path: "/my-mixtapes" }, [200]);
  const orderPage = await request(base, { path: `/my-mixtapes/${code}`, jar, agent });
  latencies.push(orderPage.ms);
  if (orderPage.status !== 200 && orderPage.status !== 404) throw new Error(`order page: ${orderPage.status}`);
  if (n % 10 === 0) {
    await post("/logout", {});
    const login = await send(
      { method: "POST", path: "/auth", form: { mode: "login", email: account.email, password: account.password } },
      [302],
    );
    await send({ path: login.headers.location }, [200]);
  }
  return code;
}

/** Runs visits arriving at `visitsPerS` for `durationMs`; answers the request latencies, errors and stored orders. */
export async function atRate(base, accounts, visitsPerS, durationMs) {
  const agent = newAgent(256);
  const free = [...accounts];
  const waiting = [];
  const take = () => (free.length ? Promise.resolve(free.pop()) : new Promise((r) => waiting.push(r)));
  const give = (a) => (waiting.length ? waiting.shift()(a) : free.push(a));
  const latencies = [];
  const codes = [];
  const errors = [];
  const started = now();
  const visits = [];
  for (let k = 0; ; k++) {
    const at = started + (k * 1000) / visitsPerS;
    if (at - started >= durationMs) break;
    const wait = at - now();
    if (wait > 0) await sleep(wait);
    visits.push(
      take().then(async (account) => {
        try {
          codes.push({ account, code: await visit(base, account, agent, latencies, k) });
        } catch (e) {
          errors.push(e.message);
        } finally {
          give(account);
        }
      }),
    );
  }
  await Promise.all(visits);
  const seconds = (now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { visits: visits.length, requests: latencies.length, seconds, latencies, codes, errors };
}

/** The shoppers who visit, each warmed up once: the first requests of a process are slower. */
export async function mixAccounts(base, dataDir, agent) {
  const accounts = [];
  for (let i = 0; i < ACCOUNTS; i++) accounts.push(await signUpShopper(base, dataDir, "mix", agent));
  await atRate(base, accounts, 10, 3000);
  return accounts;
}

/** Requests a visit makes on average (the 1 in 10 who log out and in add 4). */
export const REQUESTS_PER_VISIT = 19.3;

/** Every transmitted code is on its shopper's My Mixtapes exactly once (a page of 20, newest first). */
async function lostOrders(base, results) {
  let lost = 0;
  const agent = newAgent(8);
  for (const { account, code } of results.codes) {
    const res = await request(base, { path: `/my-mixtapes/${code}`, jar: account.jar, agent });
    if (res.status === 404) {
      const list = await request(base, { path: "/my-mixtapes", jar: account.jar, agent });
      if ((list.body.match(new RegExp(`>${code}<`, "g")) ?? []).length !== 1) lost++;
    } else if (res.status !== 200) lost++;
  }
  agent.destroy();
  return lost;
}

/** The mix at rising rates (requests per second, about 19.3 requests a visit): the highest within budget. */
export async function measureMix({ rates = [100, 125, 150, 175, 200, 250, 300, 350], durationS = 15 } = {}) {
  const dataDir = await mkTemp("mix");
  const app = await startApp({ dataDir, port: await freePort(), env: { LOG_LEVEL: "warn" } });
  const seedAgent = newAgent(4);
  try {
    const accounts = await mixAccounts(app.base, dataDir, seedAgent);
    const rows = [];
    for (const rps of rates) {
      const r = await atRate(app.base, accounts, rps / REQUESTS_PER_VISIT, durationS * 1000);
      const lost = await lostOrders(app.base, r);
      const p99 = percentile(r.latencies, 99);
      rows.push({
        targetRps: rps,
        rps: r.requests / r.seconds,
        shoppersPerMin: (r.visits / r.seconds) * 60,
        p50: percentile(r.latencies, 50),
        p99,
        max: r.latencies.at(-1),
        errors: r.errors.length,
        errorSample: r.errors[0] ?? null,
        lost,
        ok: p99 <= P99_BUDGET_MS && r.errors.length === 0 && lost === 0,
        load1: os.loadavg()[0],
      });
      if (p99 > P99_BUDGET_MS * 3) break; // far past the budget: higher rates only queue
    }
    const best = rows.filter((r) => r.ok).at(-1) ?? null;
    return { rows, best };
  } finally {
    seedAgent.destroy();
    await stopChild(app.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rates = process.argv[2]?.split(",").map(Number);
  console.log(JSON.stringify(await measureMix(rates ? { rates } : {}), null, 2));
}
