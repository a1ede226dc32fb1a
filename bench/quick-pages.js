#!/usr/bin/env node
// Quick throughput check of a few pages on the existing build (no report): for A/B of a server change.
//   node bench/quick-pages.js [seconds]
import { cannonGet, deckIntent, freePort, mkTemp, newAgent, signUpShopper, startApp, stopChild } from "./lib.js";

const seconds = Number(process.argv[2] ?? 5);
const dataDir = await mkTemp("quick-");
const app = await startApp({ dataDir, port: await freePort(), env: JSON.parse(process.env.QUICK_ENV ?? "{}") });
const agent = newAgent(4);
const shopper = await signUpShopper(app.base, dataDir, "quick", agent);
for (let id = 1; id <= 10; id++) await deckIntent(app.base, shopper, { intent: "add", songId: String(id) }, agent);
const cookie = shopper.jar.header(["mixtape-auth", "mixtape-deck"]);
const rows = [];
for (const [name, p, c] of [
  ["/auth", "/auth", undefined],
  ["/", "/", cookie],
  ["/my-mixtapes", "/my-mixtapes", cookie],
]) {
  const r = await cannonGet({ base: app.base, path: p, cookie: c, connections: 10, warmupS: 2, durationS: seconds });
  rows.push(
    `${name.padEnd(14)} ${r.rps.toFixed(0).padStart(5)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}  ${(r.bytesPerReq / 1024).toFixed(1)} kB`,
  );
}
console.log(`startup ${app.startupMs.toFixed(0)} ms`);
console.log(rows.join("\n"));
agent.destroy();
await stopChild(app.child);
process.exit(0);
