#!/usr/bin/env node
// Node's memory settings for a small host (docs/deploy.md: SMALL_HOST_ENV), on and off,
// side by side in one run: the server's peak RSS in every scenario of the memory rows, each variant
// on servers of its own:
//   - the first start on a new data dir (sampled from the spawn) and the sign-up burst after it:
//     16 shoppers, 4 at a time (scrypt runs on the libuv pool);
//   - GET / signed in at 20 connections;
//   - the drop's upload (a tape by the plain form and by tus) and its 20 range downloads
//     (bench/scenarios/drop-measure.js, one round each).
// `npm run bench` runs it; alone: node bench/run.js memory (after npx react-router build).
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import { cannonGet, freePort, mkTemp, newAgent, RssSampler, signUpShopper, startApp, stopChild } from "../lib/index.js";
import { CFG, SMALL_HOST_ENV, SMALL_HOST_NODE_ARGS } from "../lib/config.js";
import { measureRangeDownloads, measureUploads } from "./drop-measure.js";

export const MEMORY_VARIANTS = [
  { name: "Node's defaults (npm start)", small: false, env: {}, nodeArgs: [] },
  {
    name: [...Object.entries(SMALL_HOST_ENV).map(([k, v]) => `${k}=${v}`), `node ${SMALL_HOST_NODE_ARGS.join(" ")}`].join(", "),
    small: true,
    env: SMALL_HOST_ENV,
    nodeArgs: SMALL_HOST_NODE_ARGS,
  },
];

/** First start, sign-ups and GET / on one server: the peak of each phase, and GET /'s rate. */
async function serverPhases(env, nodeArgs, durationS) {
  const dataDir = await mkTemp("memory-settings");
  let sampler;
  const app = await startApp({
    dataDir,
    port: await freePort(),
    nodeArgs,
    env: { ...env, LOG_LEVEL: "warn" },
    // From the spawn: the first start on an empty data dir is part of the burst.
    onSpawn: (child) => {
      sampler = new RssSampler(child.pid);
      sampler.start("first start");
    },
  });
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
    return {
      startMs: app.startupMs,
      firstStartMb: sampler.peaks["first start"],
      signUpPeakMb: sampler.peaks["sign-ups"],
      getPeakMb: sampler.peaks["GET /"],
      rps: load.rps,
      p99: load.p99,
      errors: load.errors,
    };
  } finally {
    sampler?.stop();
    agent.destroy();
    await stopChild(app.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * One row per variant: the peaks of the first start + sign-ups, GET /, the drop's upload (the
 * higher of the plain form and tus) and its downloads. `drop: false` leaves the drop out.
 */
export async function compareMemory({
  durationS = 6,
  drop = true,
  uploadMb = CFG.dropUploadMb,
  downloadMb = CFG.dropDownloadMb,
  log = () => {},
} = {}) {
  const rows = [];
  for (const v of MEMORY_VARIANTS) {
    log(`  ${v.name}: first start, 16 sign-ups (4 at a time), GET /`);
    const row = { variant: v.name, small: v.small, ...(await serverPhases(v.env, v.nodeArgs, durationS)) };
    row.burstPeakMb = Math.max(row.firstStartMb, row.signUpPeakMb);
    if (drop) {
      log(`  ${v.name}: the drop's upload (${uploadMb} MB) and downloads (${downloadMb} MB)`);
      const uploads = await measureUploads({ sizeMb: uploadMb, rounds: 1, server: v });
      const downloads = await measureRangeDownloads({ sizeMb: downloadMb, rounds: 1, server: v });
      Object.assign(row, {
        uploadPeakMb: Math.max(uploads.formPeakMb, uploads.tusPeakMb),
        formPeakMb: uploads.formPeakMb,
        tusPeakMb: uploads.tusPeakMb,
        downloadPeakMb: downloads.peakMb,
        uploadMb: uploads.sizeMb,
        downloadMb: downloads.sizeMb,
      });
    }
    row.peakMb = Math.max(row.burstPeakMb, row.getPeakMb, row.uploadPeakMb ?? 0, row.downloadPeakMb ?? 0);
    rows.push(row);
  }
  return rows;
}

/** The scenarios of a row, each with its peak (the budget rows and the report's table). */
export const MEMORY_SCENARIOS = [
  { key: "burstPeakMb", name: "the first start on a new data dir and 16 sign-ups, 4 at a time" },
  { key: "getPeakMb", name: "GET / signed in at 20 connections" },
  { key: "uploadPeakMb", name: "the drop's upload (plain form and tus)" },
  { key: "downloadPeakMb", name: "the drop's 20 range downloads" },
];

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await compareMemory({ log: console.log }))
    console.log(
      `${r.variant}: ${MEMORY_SCENARIOS.map((s) => `${s.name} ${Math.round(r[s.key])} MB`).join("; ")}; GET / ${Math.round(r.rps)} req/s, p99 ${r.p99} ms`,
    );
  process.exit(0);
}
