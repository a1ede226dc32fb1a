#!/usr/bin/env node
// Before and after a change that moves the whole build (a framework's major, the Node line), in one
// run: the pages of the throughput budgets on each build, in pages-ab.js's alternating rounds and
// both start orders (`/` signed in with a full deck and `/my-mixtapes` with 50 orders on a shop of 50
// orders, as bench/run.js measures them; then `/mixer` on a shop of 5,000), and the JS a first visit
// to `/` loads beside the stock React Router page of the same checkout (its bench/baseline).
//   BENCH_BUILDS='[{"name":"main on Node 20","root":"/tmp/main","node":"/usr/bin/node"},{"name":"this on Node 24"}]' \
//     node bench/builds-ab.js [seconds per page and round, default 5] [rounds, default 2]
// A variant without `root` is this checkout, without `node` the Node running this script. Each root
// needs its build (`npm run build`) and, for the JS row, its baseline's (`react-router build` in
// bench/baseline). Prints a markdown table; with BENCH_WRITE=1 it also replaces the "builds-ab"
// section of docs/performance.md (kept by `npm run bench`), titled BENCH_TITLE.
import fs from "node:fs";
import path from "node:path";
import { comparePages } from "./pages-ab.js";
import { APP_ENV, CFG, REPORT } from "./config.js";
import {
  ROOT,
  children,
  deckIntent,
  freePort,
  request,
  seedManyAccounts,
  seedManyOrders,
  signUpShopper,
  spawnLogged,
  stopChild,
  waitFor200,
  now,
} from "./lib.js";
import { baselineJs, homeJs } from "./scenarios/sizes.js";

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 2);
const variants = JSON.parse(process.env.BENCH_BUILDS ?? "[]").map((v) => ({
  name: v.name,
  root: v.root ? path.resolve(v.root) : ROOT,
  node: v.node ?? process.execPath,
  env: { ...APP_ENV, ...(v.env ?? {}) },
}));
if (variants.length < 2) {
  console.error("BENCH_BUILDS: a JSON list of at least two { name, root?, node?, env? }");
  process.exit(2);
}
for (const v of variants)
  if (!fs.existsSync(path.join(v.root, "build/server/index.js"))) throw new Error(`${v.root} has no build (npm run build there)`);

const cookieOf = (account) => account.jar.header(["mixtape-auth", "mixtape-deck"]);
/** Each variant's `/` as its server sent it to the full-deck shopper (for the JS row). */
const homeHtml = new Map();

/**
 * The mixer, a shopper with a full deck, and `total` orders written while the server is down (the
 * newest 50 one shopper's): the pages named, of `/`, `/my-mixtapes` and `/mixer`.
 */
const budgetPages = (total, names) =>
  async function prepare(app, dataDir, agent, restart, v) {
    const accounts = await seedManyAccounts(app.base, dataDir);
    const shopper = await signUpShopper(app.base, dataDir, "ab", agent);
    for (let id = 1; id <= 10; id++) await deckIntent(app.base, shopper, { intent: "add", songId: String(id) }, agent);
    const again = await restart(() => seedManyOrders(dataDir, accounts, { total, many: 50 }));
    const home = await request(again.base, { path: "/", jar: shopper.jar.clone(), headers: { "accept-encoding": "identity" } });
    if (home.status !== 200) throw new Error(`GET / answered ${home.status} on ${v.name}`);
    homeHtml.set(v, home.body);
    const pages = [
      { page: "/", path: "/", cookie: cookieOf(shopper) },
      { page: "/my-mixtapes", path: "/my-mixtapes", cookie: cookieOf(accounts.many) },
      { page: "/mixer", path: "/mixer", cookie: cookieOf(accounts.mixer) },
    ];
    return pages.filter((p) => names.includes(p.page));
  };

/** The stock page's first-visit JS of the checkout at root, from its built bench/baseline; null when not built. */
async function baselineOf(v) {
  const dir = path.join(v.root, "bench/baseline");
  if (!fs.existsSync(path.join(dir, "build/server/index.js"))) return null;
  const port = await freePort();
  const since = now();
  const child = spawnLogged(v.node, [path.join(dir, "server.js")], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1" },
    name: `baseline of ${v.name}`,
  });
  try {
    await waitFor200(`http://127.0.0.1:${port}/`, child, since);
    const html = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    return baselineJs(html, path.join(dir, "build/client"));
  } finally {
    await stopChild(child);
  }
}

const kB = (bytes) => (bytes / 1000).toFixed(1);
const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" / ");
try {
  const started = `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load ${load()}`;
  const run = (total, pages) =>
    comparePages({ variants, seconds, rounds, connections: CFG.connections, prepare: budgetPages(total, pages) });
  const rows = [...(await run(50, ["/", "/my-mixtapes"])), ...(await run(CFG.mixerOrders, ["/mixer"]))];
  const lines = [
    `Measured by \`node bench/builds-ab.js ${seconds} ${rounds}\` on ${started} to load ${load()} (2 cores, shared):`,
    `${rounds} rounds of ${seconds} s per page after 1 s of warm-up, ${CFG.connections} connections, the servers started in both orders;`,
    "each page: the server's CPU time per request over all the rounds (its own process, from /proc), which the neighbours' load",
    "moves far less than its rate; then req/s (the mean of the rounds) and p99 ms (the worst). JS: gzip (level 9) of a first visit to `/`.",
    "",
    `| build | \`/\` signed in, full deck: CPU per request; req/s (p99 ms) | \`/my-mixtapes\`, 50 orders | \`/mixer\`, ${CFG.mixerOrders} orders | JS on \`/\`, kB (the stock page's; the app's share) |`,
    "|---|---:|---:|---:|---:|",
  ];
  for (const v of variants) {
    const cell = (page) => {
      const r = rows.find((x) => x.variant === v.name && x.page === page);
      return `${r.cpuMsPerReq.toFixed(1)} ms; ${r.rps.toFixed(1)} req/s (${r.p99})${r.errors ? `, ${r.errors} errors` : ""}`;
    };
    const home = homeJs(homeHtml.get(v), path.join(v.root, "build/client"));
    const stock = await baselineOf(v);
    const jsCell = stock ? `${kB(home.gzip)} (${kB(stock.gzip)}; +${kB(home.gzip - stock.gzip)})` : kB(home.gzip);
    lines.push(`| ${v.name} | ${cell("/")} | ${cell("/my-mixtapes")} | ${cell("/mixer")} | ${jsCell} |`);
  }
  console.log(`\n${lines.join("\n")}`);
  if (process.env.BENCH_WRITE === "1") {
    const md = [
      "<!-- builds-ab:start -->",
      `## ${process.env.BENCH_TITLE ?? "Before and after"}`,
      "",
      ...lines,
      "<!-- builds-ab:end -->",
    ].join("\n");
    const old = fs.readFileSync(REPORT, "utf8");
    const re = /<!-- builds-ab:start -->[\s\S]*?<!-- builds-ab:end -->/;
    fs.writeFileSync(
      REPORT,
      re.test(old) ? old.replace(re, () => md) : old.replace(/\n## Decisions\n/, () => `\n${md}\n\n## Decisions\n`),
    );
  }
} finally {
  await Promise.all([...children].map((c) => stopChild(c, 5_000)));
}
