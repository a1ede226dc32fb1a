#!/usr/bin/env node
// Does a forgot-password request for an existing address slow the request that follows it?
// (the outside probe's defect 5: docs/decisions/004-auth-emails-queued.md). Against the
// production build on a fresh data dir with one account:
// ROUNDS pairs, in random order, of "POST /auth/forgot, then at once GET /auth", for the
// account's address and for an unknown one; reports the median time of the GET after each,
// and the Mann-Whitney z of the two samples (|z| > 3: the time tells the addresses apart).
// Usage: node bench/run.js forgot-timing [ROUNDS=400] (after npm run build).
import { expectStatus, freePort, median, mkTemp, newAgent, request, signUpShopper, startApp, stopChild } from "../lib/index.js";

const ROUNDS = Number(process.argv[2] ?? 400);

/** Mann-Whitney U as a z score (normal approximation, no tie correction). */
function mannWhitneyZ(a, b) {
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  let rankA = 0;
  all.forEach((x, i) => {
    if (x.g === 0) rankA += i + 1;
  });
  const u = rankA - (a.length * (a.length + 1)) / 2;
  const mean = (a.length * b.length) / 2;
  const sd = Math.sqrt((a.length * b.length * (a.length + b.length + 1)) / 12);
  return (u - mean) / sd;
}

const dataDir = await mkTemp("forgot-timing");
const port = await freePort();
const { child, base } = await startApp({ dataDir, port, env: { LOG_LEVEL: "warn" } });
const agent = newAgent(4);
try {
  const known = await signUpShopper(base, dataDir, "timing", agent);
  const after = { known: [], unknown: [] };
  for (let i = 0; i < ROUNDS * 2; i++) {
    const which = Math.random() < 0.5 ? "known" : "unknown";
    const email = which === "known" ? known.email : `nobody.${i}@example.com`;
    await expectStatus(base, { method: "POST", path: "/auth/forgot", form: { email }, agent }, 302);
    const probe = await request(base, { path: "/auth", agent });
    after[which].push(probe.ms);
  }
  const z = mannWhitneyZ(after.known, after.unknown);
  console.log(
    `GET /auth right after a forgot-password POST: existing address median ${median(after.known).toFixed(2)} ms ` +
      `(n=${after.known.length}), unknown address median ${median(after.unknown).toFixed(2)} ms (n=${after.unknown.length}); ` +
      `Mann-Whitney z = ${z.toFixed(2)}`,
  );
} finally {
  await stopChild(child);
}
