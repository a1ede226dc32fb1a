#!/usr/bin/env node
// Capacity for a mix of shoppers: virtual shoppers arrive in an open loop, each doing what a
// shopper does: open /, add 3 songs, choose a design, set an option and a note, open the review,
// generate a code, transmit, open My Mixtapes and the order's page; 1 in 10 also logs out and
// in again (scrypt included). Two flavours, each sending what a browser sends (captured from
// Chromium with and without JavaScript against this build):
//   - no-JS: every form a POST answered by a redirect, then the full page it lands on;
//   - JS: every deck edit a fetcher POST to `/_.data` and the loaders' revalidation
//     (`GET /_.data`), the review's forms navigation POSTs to `/review.data` answered 202 with
//     the redirect, then its `.data`; My Mixtapes and the order page client-side `.data` loads.
//     Only the first `/` is a page render.
// Every request sends Accept-Encoding as a browser does, and an Origin header on POSTs. At each
// rate: the rate achieved (answers in the measured window per second, after a warm-up at the
// same rate), every request's latency (from its own send), the p99, and whether every order
// was stored once. A rate passes only when the rate achieved is at least BUDGETS.achievedShare
// of the rate asked.
// `npm run bench` runs it; alone: node bench/run.js mix [no-js|js] [rates as requests/s, e.g. 150,250,350].
import { pathToFileURL } from "node:url";
import os from "node:os";
import fs from "node:fs";
import {
  ACCEPT_ENCODING,
  achievedRate,
  carried,
  decodeDeckCookie,
  freePort,
  mkTemp,
  newAgent,
  now,
  percentile,
  request,
  signUpShopper,
  sleep,
  startApp,
  stopChild,
} from "../lib/index.js";
import { BUDGETS, MIX_RATES } from "../lib/config.js";

const ACCOUNTS = 60;
/** One visit in LOGIN_EVERY also logs out and in again. */
const LOGIN_EVERY = 10;

/** A visit's requests, sent one after the other as a shopper clicks; each latency goes to `record`. */
function sender(base, account, agent, record) {
  const jar = account.jar;
  const headers = { "accept-encoding": ACCEPT_ENCODING };
  const post = { ...headers, origin: base };
  return async (opts, expected) => {
    const res = await request(base, {
      ...opts,
      headers: opts.method === "POST" ? post : headers,
      jar,
      agent,
      timeout: 10_000,
    });
    record(res.ms);
    if (!expected.includes(res.status)) throw new Error(`${opts.method ?? "GET"} ${opts.path}: ${res.status}`);
    return res;
  };
}

/** The code of the deck's order (the signed deck cookie holds it; the review shows the same, see transmitPools). */
function deckCode(jar) {
  const code = decodeDeckCookie(jar.get("mixtape-deck")).code;
  if (!code) throw new Error("no order code in the deck after generate-code");
  return code;
}

/** Without JavaScript: every form a POST, then the page its redirect names. */
async function visitNoJs(base, account, agent, record, n) {
  const send = sender(base, account, agent, record);
  const form = async (path, fields, status = [303]) => {
    const res = await send({ method: "POST", path, form: fields }, status);
    const to = String(res.headers.location).split("#")[0];
    return send({ path: to }, [200]);
  };
  const note = `Visit ${n}`;
  await send({ path: "/" }, [200]);
  for (const songId of [String(1 + (n % 10)), String(11 + (n % 10)), String(21 + (n % 10))])
    await form("/", { intent: "add", songId });
  await form("/", { intent: "design", designId: "ice-cold" });
  // The option checked, the note typed, Save options: one POST.
  await form("/", { intent: "options", djIntro: "on", note, save: "1" });
  // Review Order submits the options form to /review (a note typed but not saved goes along).
  await form("/review", { intent: "options", djIntro: "on", note });
  await form("/review", { intent: "generate-code" });
  const code = deckCode(account.jar);
  await form("/review", { intent: "transmit", code });
  await send({ path: "/my-mixtapes" }, [200]);
  await send({ path: `/my-mixtapes/${code}` }, [200, 404]);
  if (n % LOGIN_EVERY === 0) {
    await form("/logout", {}, [302, 303]);
    await form("/auth", { mode: "login", email: account.email, password: account.password }, [302]);
  }
  return code;
}

/** React Router 8's single-fetch URL of a location: a path ending in `/` gets `_.data` (`/` is `/_.data`), any other `.data`. */
export function dataUrl(location) {
  const u = new URL(location, "http://x");
  return `${u.pathname}${u.pathname.endsWith("/") ? "_" : ""}.data${u.search}`;
}

/** Where a single-fetch redirect (202, turbo-stream `{redirect, status, ...}`) points. */
const redirectOf = (body) => /"redirect","([^"]+)"/.exec(body)?.[1] ?? null;

/** With JavaScript: fetchers for the deck, navigations to `.data` for the rest. */
async function visitJs(base, account, agent, record, n) {
  const send = sender(base, account, agent, record);
  // A deck edit: the fetcher's POST (the _fetch field the hydrated form adds), then the revalidation.
  const fetcher = async (fields) => {
    await send({ method: "POST", path: "/_.data", form: { ...fields, _fetch: "1" } }, [200]);
    return send({ path: "/_.data" }, [200]);
  };
  // A form navigation: the action answers 202 with the redirect, then the loaders of where it points.
  const navigate = async (path, fields) => {
    const res = await send({ method: "POST", path: dataUrl(path), form: fields, decode: true }, [202]);
    const to = redirectOf(res.body);
    if (!to) throw new Error(`POST ${dataUrl(path)}: no redirect in the answer`);
    return send({ path: dataUrl(to) }, [200]);
  };
  const note = `Visit ${n}`;
  await send({ path: "/" }, [200]);
  for (const songId of [String(1 + (n % 10)), String(11 + (n % 10)), String(21 + (n % 10))])
    await fetcher({ intent: "add", songId });
  await fetcher({ intent: "design", designId: "ice-cold" });
  // A checkbox saves itself when it changes; the note goes with Save options.
  await fetcher({ intent: "options", djIntro: "on", note: "" });
  await fetcher({ intent: "options", djIntro: "on", note, save: "1" });
  await navigate("/review", { intent: "options", djIntro: "on", note });
  await navigate("/review", { intent: "generate-code" });
  const code = deckCode(account.jar);
  await navigate("/review", { intent: "transmit", code });
  await send({ path: "/my-mixtapes.data" }, [200]);
  await send({ path: `/my-mixtapes/${code}.data` }, [200, 404]);
  if (n % LOGIN_EVERY === 0) {
    await navigate("/logout", {});
    await navigate("/auth", { mode: "login", email: account.email, password: account.password });
  }
  return code;
}

/**
 * The two flavours: the requests of a visit, and the 4 more of every LOGIN_EVERY-th (visits 0, 10, …), which log
 * out and in; requestsPerVisit is their average.
 */
export const FLAVOURS = {
  "no-js": {
    name: "no-JS shoppers",
    what: "every edit a form POST, then the full page of its redirect",
    visit: visitNoJs,
    requests: 19,
    requestsPerVisit: 19 + 4 / LOGIN_EVERY,
  },
  js: {
    name: "JS shoppers",
    what: "edits are fetcher POSTs to `.data` and the loaders' revalidation, no page render after the first `/`",
    visit: visitJs,
    requests: 21,
    requestsPerVisit: 21 + 4 / LOGIN_EVERY,
  },
};

/** What `visits` visits of a flavour send, visit 0 first: a low rate makes few visits, and the logins weigh more. */
export const requestsOfVisits = (flavour, visits) => visits * FLAVOURS[flavour].requests + 4 * Math.ceil(visits / LOGIN_EVERY);

/** The no-JS flavour's (bench/scenarios/profile.js mix). */
export const REQUESTS_PER_VISIT = FLAVOURS["no-js"].requestsPerVisit;

/**
 * Visits arriving at `visitsPerS` for warmupMs + durationMs; answers the latencies and the
 * rate achieved of the requests answered in the last durationMs, the errors and the orders.
 */
export async function atRate(base, accounts, visitsPerS, durationMs, { flavour = "no-js", warmupMs = 0 } = {}) {
  const { visit } = FLAVOURS[flavour];
  const agent = newAgent(256);
  const free = [...accounts];
  const waiting = [];
  const take = () => (free.length ? Promise.resolve(free.pop()) : new Promise((r) => waiting.push(r)));
  const give = (a) => (waiting.length ? waiting.shift()(a) : free.push(a));
  const answers = []; // [end, ms] of every request
  const codes = [];
  const errors = [];
  const started = now();
  const from = started + warmupMs;
  const to = from + durationMs;
  const visits = [];
  let sent = 0;
  for (let k = 0; ; k++) {
    const at = started + (k * 1000) / visitsPerS;
    if (at >= to) break;
    const wait = at - now();
    if (wait > 0) await sleep(wait);
    visits.push(
      take().then(async (account) => {
        const record = (ms) => {
          sent++;
          answers.push([now(), ms]);
        };
        try {
          codes.push({ account, code: await visit(base, account, agent, record, k) });
        } catch (e) {
          errors.push(e.message);
        } finally {
          give(account);
        }
      }),
    );
  }
  await Promise.all(visits);
  agent.destroy();
  const inWindow = answers.filter(([end]) => end >= from && end < to);
  const latencies = inWindow.map(([, ms]) => ms).sort((a, b) => a - b);
  return {
    visits: visits.length,
    requests: sent,
    // Every request of the run (the warm-up too), and those of the measured window.
    requestsPerVisit: sent / visits.length,
    windowRequests: inWindow.length,
    seconds: durationMs / 1000,
    rps: achievedRate(
      answers.map(([end]) => end),
      from,
      to,
    ),
    latencies,
    codes,
    errors,
  };
}

/** The shoppers who visit, each warmed up once: the first requests of a process are slower. */
export async function mixAccounts(base, dataDir, agent, flavour = "no-js") {
  const accounts = [];
  for (let i = 0; i < ACCOUNTS; i++) accounts.push(await signUpShopper(base, dataDir, "mix", agent));
  await atRate(base, accounts, 10, 3000, { flavour });
  return accounts;
}

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

/** Whether a row of the mix is within its budget: the rate carried, the p99, no error, nothing lost. */
export const rowOk = (row) =>
  carried(row.rps, row.targetRps, BUDGETS.achievedShare) && row.p99 <= BUDGETS.mixP99Ms && row.errors === 0 && row.lost === 0;

/**
 * The mix of one flavour at rising rates (requests per second asked), each on the same server
 * after a warm-up at that rate: every row, and the highest rate within budget.
 */
export async function measureMix({ flavour = "no-js", rates = MIX_RATES, durationS = 15, warmupS = 2 } = {}) {
  const f = FLAVOURS[flavour];
  const dataDir = await mkTemp("mix");
  const app = await startApp({ dataDir, port: await freePort(), env: { LOG_LEVEL: "warn" } });
  const seedAgent = newAgent(4);
  try {
    const accounts = await mixAccounts(app.base, dataDir, seedAgent, flavour);
    const rows = [];
    for (const rps of rates) {
      const r = await atRate(app.base, accounts, rps / f.requestsPerVisit, durationS * 1000, {
        flavour,
        warmupMs: warmupS * 1000,
      });
      // The visits sent what the flavour says they send, or the rate asked is not the rate sent.
      const expected = requestsOfVisits(flavour, r.visits) / r.visits;
      if (r.errors.length === 0 && Math.abs(r.requestsPerVisit - expected) > 0.5)
        throw new Error(`${flavour} visits sent ${r.requestsPerVisit.toFixed(2)} requests each, expected ${expected.toFixed(2)}`);
      const lost = await lostOrders(app.base, r);
      const p99 = percentile(r.latencies, 99);
      const row = {
        targetRps: rps,
        rps: r.rps,
        ratio: r.rps / rps,
        shoppersPerMin: (r.rps / f.requestsPerVisit) * 60,
        p50: percentile(r.latencies, 50),
        p99,
        max: r.latencies.at(-1),
        errors: r.errors.length,
        errorSample: r.errors[0] ?? null,
        lost,
        load1: os.loadavg()[0],
      };
      row.ok = rowOk(row);
      rows.push(row);
      if (p99 > BUDGETS.mixP99Ms * 3 || row.ratio < 0.8) break; // far past the budget: higher rates only queue
    }
    const best = rows.filter((r) => r.ok).at(-1) ?? null;
    return { flavour, name: f.name, what: f.what, requestsPerVisit: f.requestsPerVisit, durationS, warmupS, rows, best };
  } finally {
    seedAgent.destroy();
    await stopChild(app.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const flavour = process.argv[2] ?? "no-js";
  if (!FLAVOURS[flavour]) throw new Error(`flavour: no-js or js, not ${flavour}`);
  const rates = process.argv[3]?.split(",").map(Number);
  console.log(JSON.stringify(await measureMix({ flavour, ...(rates ? { rates } : {}) }), null, 2));
}
