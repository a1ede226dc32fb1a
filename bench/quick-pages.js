#!/usr/bin/env node
// Quick throughput check of a few pages on the existing build (no report): for A/B of a server change.
//   node bench/quick-pages.js [seconds]            one server, QUICK_ENV='{"NAME":"value"}'
//   QUICK_B='{"BUFFER_HTML":"0"}' node bench/quick-pages.js   two servers, QUICK_ENV against QUICK_B
import { comparePages } from "./pages-ab.js";

const seconds = Number(process.argv[2] ?? 5);
const variants = [{ name: "A", env: JSON.parse(process.env.QUICK_ENV ?? "{}") }];
if (process.env.QUICK_B) variants.push({ name: "B", env: JSON.parse(process.env.QUICK_B) });
const rows = await comparePages({ variants, seconds, rounds: variants.length });
for (const r of rows)
  console.log(
    `${r.variant} ${r.page.padEnd(14)} ${r.rps.toFixed(0).padStart(5)} req/s  ${r.cpuMsPerReq.toFixed(1)} ms CPU/req  p99 ${r.p99} ms  errors ${r.errors}  ${r.kB.toFixed(1)} kB  (start-up ${r.startupMs.toFixed(0)} ms)`,
  );
process.exit(0);
