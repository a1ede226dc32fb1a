#!/usr/bin/env node
// Payment webhooks under load: signed Standard Webhooks events (POST /webhooks/checkout) at a
// fixed rate in an open loop, one payment per order plus replays of earlier events mixed in.
// Afterwards, in the stopped server's database: every order paid exactly once, one event row
// per event id. The first warmupS seconds warm a fresh server and are reported apart; the rate
// achieved is the events of the measured seconds answered 200, per second of the time they took.
// `npm run bench` runs it; alone: node bench/webhooks.js [events/s] [seconds].
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Webhook } from "standardwebhooks";
import {
  freePort,
  mkTemp,
  newAgent,
  now,
  percentile,
  request,
  scheduledRate,
  seedManyAccounts,
  seedManyOrders,
  sleep,
  startApp,
  stopChild,
} from "./lib.js";

export const WEBHOOK_P99_BUDGET_MS = 100;
const SECRET = `whsec_${crypto.randomBytes(24).toString("base64")}`;
const REPLAY_SHARE = 0.2;

export async function measureWebhooks({ rate = 200, durationS = 10, warmupS = 2 } = {}) {
  const dataDir = await mkTemp("webhooks");
  const env = { LOG_LEVEL: "warn", PAYMENT_WEBHOOK_SECRET: SECRET, MIXER_EMAILS: "bench.mixer@example.com" };
  let app = await startApp({ dataDir, port: await freePort(), env });
  const seeded = await seedManyAccounts(app.base, dataDir);
  await stopChild(app.child);
  // Any event may be a new payment: one order for each.
  const orders = Math.ceil(rate * (warmupS + durationS)) + 10;
  await seedManyOrders(dataDir, seeded, { total: orders, many: 0 });
  const { PGlite } = await import("@electric-sql/pglite");
  const seededDb = new PGlite(path.join(dataDir, "pgdata"));
  await seededDb.exec("delete from public.payment_events;");
  await seededDb.close();
  app = await startApp({ dataDir, port: await freePort(), env });
  const webhook = new Webhook(SECRET);
  const agent = newAgent(64);
  const sent = [];
  const latencies = [];
  const warmup = [];
  const answered = []; // when each 200 to an event scheduled after the warm-up came back
  let errors = 0;
  const errorSamples = [];
  try {
    const started = now();
    const jobs = [];
    let next = 1;
    for (let k = 0; ; k++) {
      const at = started + (k * 1000) / rate;
      if (at - started >= (warmupS + durationS) * 1000) break;
      const wait = at - now();
      if (wait > 0) await sleep(wait);
      const replay = sent.length > 10 && Math.random() < REPLAY_SHARE;
      const event = replay
        ? sent[Math.floor(Math.random() * sent.length)]
        : {
            id: `msg_${k}`,
            body: JSON.stringify({
              type: "payment.succeeded",
              data: {
                code: `S${(next++).toString(16).toUpperCase().padStart(7, "0")}`,
                amount: 1200,
                currency: "USD",
                reference: `ref-${k}`,
              },
            }),
          };
      if (!replay) sent.push(event);
      const stamp = new Date();
      const headers = {
        "content-type": "application/json",
        "webhook-id": event.id,
        "webhook-timestamp": String(Math.floor(stamp.getTime() / 1000)),
        "webhook-signature": webhook.sign(event.id, stamp, event.body),
      };
      jobs.push(
        request(app.base, { method: "POST", path: "/webhooks/checkout", headers, agent, raw: true, body: event.body })
          .then((res) => {
            // The first seconds warm a fresh server (JIT, the database's caches): reported apart.
            if (res.status === 200) {
              const end = now();
              const warming = at - started < warmupS * 1000;
              (warming ? warmup : latencies).push(end - at);
              if (!warming) answered.push(end);
            } else {
              errors++;
              if (errorSamples.length < 3) errorSamples.push(`${res.status}`);
            }
          })
          .catch((e) => {
            errors++;
            if (errorSamples.length < 3) errorSamples.push(e.message);
          }),
      );
    }
    await Promise.all(jobs);
    const seconds = (now() - started) / 1000;
    const achieved = scheduledRate(answered, started + warmupS * 1000, started + (warmupS + durationS) * 1000);
    await stopChild(app.child);
    const db = new PGlite(path.join(dataDir, "pgdata"));
    // Each order's money as the ledger's rule reads it: one payment of $12.00, none twice.
    const [{ paid, twice }] = (
      await db.query(
        `select count(*) filter (where (public.order_money(m) -> 'lines' -> 0 ->> 'payments')::int = 1
                                   and (public.order_money(m) -> 'lines' -> 0 ->> 'paid')::int = 1200)::int as paid,
                count(*) filter (where (public.order_money(m) -> 'lines' -> 0 ->> 'payments')::int > 1)::int as twice
           from public.mixtapes m`,
      )
    ).rows;
    const [{ events }] = (await db.query(`select count(*)::int as events from public.payment_events`)).rows;
    await db.close();
    latencies.sort((a, b) => a - b);
    return {
      events: jobs.length,
      distinct: sent.length,
      asked: rate,
      rate: achieved,
      seconds,
      durationS,
      warmupS,
      warmupWorst: Math.max(0, ...warmup),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors,
      errorSamples,
      paid,
      eventRows: events,
      exactlyOnce: paid === sent.length && twice === 0 && events === sent.length,
    };
  } finally {
    agent.destroy();
    await stopChild(app.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(
    JSON.stringify(
      await measureWebhooks({ rate: Number(process.argv[2] ?? 200), durationS: Number(process.argv[3] ?? 10) }),
      null,
      2,
    ),
  );
}
