#!/usr/bin/env node
// `node bench/run.js insights`: the mixer's /mixer/insights against the console's first page
// (/mixer), on one embedded data dir with BENCH_ORDERS orders (default 5,000) seeded as
// bench/scenarios/profile.js's mixer scenario does, then made realistic for the insights: a fifth
// sent 1 to 7 days after placing, a third paid $10 to $20, one in twenty cancelled, and a
// shopper's message on one order in ten (unread on one in a hundred). For each page, alternately, BENCH_ROUNDS rounds
// of: 30 requests one at a time (median and p90 of the answer time), then autocannon with
// 10 connections for BENCH_DURATION seconds (requests per second, p50/p99). Uses the
// existing build (builds when there is none). Prints a Markdown table.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import {
  BENCH_MIXER,
  ROOT,
  cannonGet,
  children,
  freePort,
  median,
  mkTemp,
  now,
  percentile,
  runNode,
  seedManyAccounts,
  seedManyOrders,
  startApp,
  stopChild,
} from "../lib/index.js";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const PAGES = ["/mixer", "/mixer/insights"];

/** Sent times, payments, cancellations and messages on the seeded orders (the server stopped). */
async function enrich(dataDir) {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(path.join(dataDir, "pgdata"));
  await db.waitReady;
  try {
    await db.exec(`
      set session_replication_role = replica;
      update public.mixtapes set sent_at = created_at + make_interval(hours => (24 + (id * 37) % 144)::int)
       where status = 'sent';
      update public.mixtapes set status = 'cancelled', cancelled_at = created_at + interval '2 hours'
       where status = 'received' and id % 20 = 7;
      insert into public.order_messages (order_id, author_id, from_mixer, body, created_at)
      select id, user_id, false, 'Can you add a shout-out for Sam?', created_at + interval '3 hours'
        from public.mixtapes where id % 10 = 3;
      insert into public.order_reads (order_id, reader, read_at, unread, since)
      select id, 'mixer', case when id % 100 = 3 then null else now() end,
             case when id % 100 = 3 then 1 else 0 end, case when id % 100 = 3 then created_at + interval '3 hours' end
        from public.mixtapes where id % 10 = 3;
      set session_replication_role = origin;
      select public.queue_recount();
      analyze public.mixtapes; analyze public.order_messages; analyze public.order_reads;
    `);
    const { rows } = await db.query(
      `select (select count(*)::int from public.mixtapes) as orders, (select count(*)::int from public.order_messages) as messages`,
    );
    return rows[0];
  } finally {
    await db.close();
  }
}

/** One GET at a time: the answer's time in ms. */
async function oneByOne(base, page, cookie, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = now();
    const res = await fetch(base + page, { headers: { cookie, "accept-encoding": "gzip" } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${page} answered ${res.status}`);
    times.push(now() - t);
  }
  return times.sort((a, b) => a - b);
}

let dataDir;
try {
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) {
    await runNode([path.join(ROOT, "node_modules/@react-router/dev/bin.cjs"), "build"], {
      env: { ...process.env, NODE_ENV: "production" },
    });
  }
  dataDir = await mkTemp("mixtape-insights-");
  const port = await freePort();
  const start = () => startApp({ dataDir, port, env: { MIXER_EMAILS: BENCH_MIXER.email } });
  let app = await start();
  const accounts = await seedManyAccounts(app.base, dataDir);
  await stopChild(app.child);
  await seedManyOrders(dataDir, accounts, { total: ORDERS, many: 500 });
  const seeded = await enrich(dataDir);
  app = await start();
  const cookie = accounts.mixer.jar.header(["mixtape-auth", "mixtape-deck"]);
  const results = Object.fromEntries(PAGES.map((p) => [p, { times: [], rps: [], p50: [], p99: [] }]));
  for (const page of PAGES) await oneByOne(app.base, page, cookie, 10); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const page of PAGES) {
      const r = results[page];
      r.times.push(...(await oneByOne(app.base, page, cookie, 30)));
      const load = await cannonGet({ base: app.base, path: page, cookie, connections: 10, warmupS: 1, durationS: DURATION });
      if (load.errors) throw new Error(`GET ${page}: ${load.errors} errors under load`);
      r.rps.push(load.rps);
      r.p50.push(load.p50);
      r.p99.push(load.p99);
    }
  }
  await stopChild(app.child);
  console.log(
    `\n${seeded.orders} orders, ${seeded.messages} messages; ${ROUNDS} rounds; ${new Date().toISOString().slice(0, 16)} UTC\n`,
  );
  console.log("| page | one at a time: median / p90 | 10 connections: req/s | p50 / p99 |");
  console.log("| ---- | ---: | ---: | ---: |");
  for (const page of PAGES) {
    const r = results[page];
    const sorted = [...r.times].sort((a, b) => a - b);
    console.log(
      `| \`${page}\` | ${median(sorted).toFixed(1)} / ${percentile(sorted, 90).toFixed(1)} ms | ${median(r.rps).toFixed(0)} | ${median(r.p50)} / ${median(r.p99)} ms |`,
    );
  }
} catch (error) {
  console.error(`insights bench: ${error instanceof Error ? error.stack : error}`);
  process.exitCode = 1;
} finally {
  await Promise.all([...children].map((c) => stopChild(c, 5_000)));
  // BENCH_KEEP=1 keeps the data dir (say, to EXPLAIN a query against it).
  if (dataDir && !process.env.BENCH_KEEP) await fsp.rm(dataDir, { recursive: true, force: true });
  else if (dataDir) console.log(`data dir kept: ${dataDir}`);
}
