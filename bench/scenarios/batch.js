// One trip to the database per request (decision 017) on and off: two servers, one with
// BATCH_DB_CALLS=0 (one RLS transaction per call, as before), the same pages in alternating
// rounds as the other switches' rows: `/` signed in with 10 tracks, `/my-mixtapes` with 50 orders
// placed through the forms, and an order's page in the mixer's console.
import { BENCH_MIXER, deckIntent, expectStatus, placeOrder, signUpShopper } from "../lib/index.js";
import { BATCH_AB } from "../lib/config.js";
import { comparePages } from "./pages-ab.js";

const env = { MIXER_EMAILS: BENCH_MIXER.email, LOG_LEVEL: "warn" };
export const BATCH_VARIANTS = [
  { name: "one transaction per request (BATCH_DB_CALLS=1, the default)", env: { ...env, BATCH_DB_CALLS: "1" } },
  { name: "one transaction per call (BATCH_DB_CALLS=0)", env: { ...env, BATCH_DB_CALLS: "0" } },
];

/** On each server: the mixer, a shopper with BATCH_AB.orders orders and then 10 tracks; the three pages. */
async function tripPages(app, dataDir, agent) {
  const mixer = await signUpShopper(app.base, dataDir, "mixer", agent, { ...BENCH_MIXER });
  const shopper = await signUpShopper(app.base, dataDir, "trips", agent);
  let code;
  for (let i = 0; i < BATCH_AB.orders; i++) code = await placeOrder(app.base, shopper, (i % 30) + 1, agent);
  for (let id = 1; id <= 10; id++) await deckIntent(app.base, shopper, { intent: "add", songId: String(id) }, agent);
  const cookie = shopper.jar.header(["mixtape-auth", "mixtape-deck"]);
  const pages = [
    { page: "GET `/` signed in, 10 tracks", path: "/", cookie },
    { page: `GET \`/my-mixtapes\`, ${BATCH_AB.orders} orders`, path: "/my-mixtapes", cookie },
    { page: "GET `/mixer/orders/{CODE}`, the mixer", path: `/mixer/orders/${code}`, cookie: mixer.jar.header() },
  ];
  for (const p of pages) await expectStatus(app.base, { path: p.path, headers: { cookie: p.cookie }, agent }, 200);
  return pages;
}

/** The rows: one per setting and page, req/s and p99 (more rounds: `node bench/run.js batch [rounds]`). */
export const batchOnOff = ({ rounds = BATCH_AB.rounds } = {}) =>
  comparePages({
    variants: BATCH_VARIANTS,
    seconds: BATCH_AB.seconds,
    rounds,
    connections: BATCH_AB.connections,
    prepare: tripPages,
  });

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await batchOnOff({ rounds: Number(process.argv[2] ?? BATCH_AB.rounds) });
  for (const r of rows)
    console.log(`${r.variant} | ${r.page} | ${r.rps.toFixed(0)} req/s | p99 ${r.p99} ms | errors ${r.errors}`);
  process.exit(0);
}
