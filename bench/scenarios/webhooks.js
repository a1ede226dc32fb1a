#!/usr/bin/env node
// Payment webhooks under load: signed Standard Webhooks events (POST /webhooks/checkout) at a
// fixed rate in an open loop, one payment per order plus replays of earlier events mixed in, and
// with refundShare, partial refunds ($1.00) of orders already paid, each naming its payment.
// Afterwards, in the stopped server's database, by the ledger's own rule (order_money): every
// order paid exactly once, every refunded order refunded exactly once, one event row per event
// id. The first warmupS seconds warm a fresh server and are reported apart; the rate achieved is
// the events of the measured seconds answered 200, per second of the time they took (scheduledRate).
// `npm run bench` runs it (payments alone, then the ledger with refunds);
// alone: node bench/run.js webhooks [events/s] [seconds] [refund share, e.g. 0.2].
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
} from "../lib/index.js";

export const WEBHOOK_P99_BUDGET_MS = 100;
const SECRET = `whsec_${crypto.randomBytes(24).toString("base64")}`;
const REPLAY_SHARE = 0.2;

export async function measureWebhooks({ rate = 200, durationS = 10, warmupS = 2, refundShare = 0 } = {}) {
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
  // Orders whose payment was answered, not yet refunded: a refund names one of them.
  const refundable = [];
  let refunds = 0;
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
      const dice = Math.random();
      const replay = sent.length > 10 && dice < REPLAY_SHARE;
      const refund = !replay && refundable.length > 0 && dice < REPLAY_SHARE + refundShare;
      let event;
      if (replay) event = sent[Math.floor(Math.random() * sent.length)];
      else if (refund) {
        const paid = refundable.splice(Math.floor(Math.random() * refundable.length), 1)[0];
        refunds++;
        event = {
          id: `msg_${k}`,
          body: JSON.stringify({
            type: "payment.refunded",
            data: { code: paid.code, amount: 100, currency: "USD", reference: paid.reference },
          }),
        };
      } else {
        const payment = { code: `S${(next++).toString(16).toUpperCase().padStart(7, "0")}`, reference: `ref-${k}` };
        event = {
          id: `msg_${k}`,
          payment,
          body: JSON.stringify({ type: "payment.succeeded", data: { ...payment, amount: 1200, currency: "USD" } }),
        };
      }
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
              if (event.payment && !replay) refundable.push(event.payment);
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
    // And each refunded order's refunds: one of $1.00, none twice.
    const [{ paid, twice, refunded, refundedTwice }] = (
      await db.query(
        `with money as (select public.order_money(m) -> 'lines' -> 0 as line from public.mixtapes m)
         select count(*) filter (where (line ->> 'payments')::int = 1 and (line ->> 'paid')::int = 1200)::int as paid,
                count(*) filter (where (line ->> 'payments')::int > 1)::int as twice,
                count(*) filter (where (line ->> 'refunded')::int = 100)::int as refunded,
                count(*) filter (where (line ->> 'refunded')::int > 100)::int as "refundedTwice"
           from money`,
      )
    ).rows;
    const [{ events }] = (await db.query(`select count(*)::int as events from public.payment_events`)).rows;
    await db.close();
    latencies.sort((a, b) => a - b);
    const payments = sent.length - refunds;
    return {
      events: jobs.length,
      distinct: sent.length,
      payments,
      refunds,
      refundShare,
      asked: rate,
      rate: achieved,
      seconds,
      warmupS,
      durationS,
      warmupWorst: Math.max(0, ...warmup),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors,
      errorSamples,
      paid,
      refunded,
      eventRows: events,
      exactlyOnce: paid === payments && twice === 0 && refunded === refunds && refundedTwice === 0 && events === sent.length,
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
      await measureWebhooks({
        rate: Number(process.argv[2] ?? 200),
        durationS: Number(process.argv[3] ?? 10),
        refundShare: Number(process.argv[4] ?? 0),
      }),
      null,
      2,
    ),
  );
}
