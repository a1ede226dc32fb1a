#!/usr/bin/env node
// Node's memory settings for a small host, on and off, side by side in one run: peak RSS while 16
// shoppers sign up (4 at a time: scrypt runs on the libuv pool) and GET / loads at 20 connections.
// `npm run bench` runs it; alone: node bench/memory-settings.js (after npm run build).
import { pathToFileURL } from "node:url";
import { cannonGet, freePort, mkTemp, newAgent, RssSampler, signUpShopper, startApp, stopChild } from "./lib.js";

export const MEMORY_VARIANTS = [
  { name: "Node's defaults (npm start)", env: {} },
  {
    name: "NODE_OPTIONS=--max-old-space-size=192, UV_THREADPOOL_SIZE=1",
    env: { NODE_OPTIONS: "--max-old-space-size=192", UV_THREADPOOL_SIZE: "1" },
  },
];

export async function compareMemory({ durationS = 6 } = {}) {
  const rows = [];
  for (const v of MEMORY_VARIANTS) {
    const dataDir = await mkTemp("memory-settings");
    const app = await startApp({ dataDir, port: await freePort(), env: { ...v.env, LOG_LEVEL: "warn" } });
    const sampler = new RssSampler(app.child.pid);
    const agent = newAgent(8);
    try {
      sampler.start("sign-ups");
      const shoppers = [];
      for (let i = 0; i < 4; i++)
        shoppers.push(...(await Promise.all([0, 1, 2, 3].map(() => signUpShopper(app.base, dataDir, "mem", agent)))));
      sampler.start("GET /");
      const load = await cannonGet({
        base: app.base,
        path: "/",
        cookie: shoppers[0].jar.header(),
        connections: 20,
        warmupS: 1,
        durationS,
      });
      sampler.stop();
      rows.push({ variant: v.name, peakMb: sampler.peak, signUpPeakMb: sampler.peaks["sign-ups"], rps: load.rps, p99: load.p99 });
    } finally {
      sampler.stop();
      agent.destroy();
      await stopChild(app.child);
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await compareMemory())
    console.log(
      `${r.variant}: peak RSS ${Math.round(r.peakMb)} MB (sign-ups ${Math.round(r.signUpPeakMb)} MB), GET / ${Math.round(r.rps)} req/s, p99 ${r.p99} ms`,
    );
  process.exit(0);
}
