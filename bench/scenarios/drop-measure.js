#!/usr/bin/env node
// The drop's bench rows; bench/scenarios/drop.js runs them in `npm run bench`:
//   - upload: a BENCH_DROP_UPLOAD_MB (default 300) audio file through the app, by the plain form
//     (multipart, no JavaScript) and by tus (16 MB PATCHes, as the Tape card sends them), each as a
//     ratio to a bare Node stream writing the same bytes to the same disk (and flushing them, as
//     the disk store does), with the server's RSS growth. Aim: at least 0.7x, at most 64 MB
//     (BUDGETS.dropRatio and dropRssGrowthMb in bench/lib/config.js).
//   - downloads: 20 concurrent clients reading a BENCH_DROP_DOWNLOAD_MB (default 100) tape by
//     8 MB ranges (as players and resumed downloads ask), through the session-bound route, as a
//     ratio to Debian's nginx (one worker, sendfile) serving the same file, with the app's RSS
//     growth. Aim: at least 0.7x, at most 64 MB. nginx is installed with apt-get when missing.
// `node bench/run.js drop` builds nothing: run `npx react-router build` first. It prints the rows and
// exits 0 when the measurement completed (budgets may FAIL), non-zero when the harness broke.
// Exports: measureUploads, measureRangeDownloads (each with `server`: its env and node flags, and
// the server's peak RSS), dropRows (the whole run's {name, measured, ok, reason} rows).
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import {
  BENCH_MIXER,
  expectStatus,
  freePort,
  mkTemp,
  newAgent,
  now,
  placeOrder,
  ROOT,
  readCpuMs,
  readRssMb,
  RssSampler,
  signUpShopper,
  startApp,
  stopChild,
} from "../lib/index.js";
import { startNginx } from "../lib/nginx.js";
import { dropRows } from "../report/drop.js";
import { f2 } from "../report/format.js";

const MiB = 1024 * 1024;
const num = (v, d) => (v === undefined || v === "" ? d : Number(v));
/** The Tape card's PATCH size (app/routes/mixer/tus-upload.ts). */
const TUS_CHUNK = 16 * MiB;
const RANGE_BYTES = 8 * MiB;
const CLIENTS = 20;

// ---- The audio file ------------------------------------------------------------------

/** A WAV of exactly `bytes` bytes (16-bit stereo 44.1 kHz noise), written by 1 MiB blocks: it passes the content check. */
export async function writeWav(file, bytes) {
  const data = bytes - 44;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(bytes - 8, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(44_100, 24);
  header.writeUInt32LE(44_100 * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data, 40);
  const block = crypto.randomBytes(MiB);
  const out = fs.createWriteStream(file);
  async function* blocks() {
    yield header;
    for (let left = data; left > 0; left -= MiB) yield left >= MiB ? block : block.subarray(0, left);
  }
  await pipeline(blocks, out);
}

/** Flushes what earlier runs left dirty, so one run does not pay for the writes of the one before. */
function settleDisk() {
  spawnSync("sync");
}

// ---- The floors ------------------------------------------------------------------------

/** A bare Node stream: the file read and written to the same disk, flushed, as Storage.put on disk does. */
async function bareCopy(src, dir) {
  const dst = path.join(dir, `bare-${crypto.randomUUID()}.wav`);
  settleDisk();
  const started = now();
  const out = fs.createWriteStream(dst);
  await pipeline(fs.createReadStream(src), out);
  const fd = await fsp.open(dst, "r+");
  await fd.sync();
  await fd.close();
  const ms = now() - started;
  await fsp.rm(dst);
  return ms;
}

// ---- The app ---------------------------------------------------------------------------

/** One HTTP request with a streamed body; resolves with status and text. */
function send(base, { method, path: p, headers, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(p, base), { method, headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (!body) return void req.end();
    if (Buffer.isBuffer(body)) return void req.end(body);
    pipeline(body, req).catch(reject);
  });
}

/** The no-JS path: the Tape card's plain form, a multipart body streamed from the file. */
export async function formUpload(app, mixer, code, file) {
  const boundary = `----mixtape${crypto.randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="tape"; filename="bench.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = (await fsp.stat(file)).size;
  async function* body() {
    yield head;
    yield* fs.createReadStream(file, { highWaterMark: MiB });
    yield tail;
  }
  const res = await send(app.base, {
    method: "POST",
    path: `/mixer/orders/${code}`,
    headers: {
      cookie: mixer.jar.header(),
      origin: app.base,
      accept: "text/html",
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "content-length": String(head.length + size + tail.length),
    },
    body: body(),
  });
  if (res.status !== 303) throw new Error(`the plain upload answered ${res.status}: ${res.text.slice(0, 300)}`);
}

/** The tus path: create, then 16 MB PATCHes, as tus-js-client sends them from the Tape card. */
export async function tusUpload(app, mixer, code, file) {
  const size = (await fsp.stat(file)).size;
  const common = { cookie: mixer.jar.header(), origin: app.base, "tus-resumable": "1.0.0" };
  const b64 = (s) => Buffer.from(s).toString("base64");
  const created = await send(app.base, {
    method: "POST",
    path: "/mixer/uploads",
    headers: { ...common, "upload-length": String(size), "upload-metadata": `code ${b64(code)},filename ${b64("bench.wav")}` },
  });
  if (created.status !== 201) throw new Error(`tus creation answered ${created.status}: ${created.text}`);
  const url = created.headers.location;
  for (let offset = 0; offset < size;) {
    const end = Math.min(size, offset + TUS_CHUNK);
    const res = await send(app.base, {
      method: "PATCH",
      path: url,
      headers: {
        ...common,
        "upload-offset": String(offset),
        "content-type": "application/offset+octet-stream",
        "content-length": String(end - offset),
      },
      body: fs.createReadStream(file, { start: offset, end: end - 1, highWaterMark: MiB }),
    });
    const last = end === size;
    if (res.status !== (last ? 200 : 204)) throw new Error(`tus PATCH at ${offset} answered ${res.status}: ${res.text}`);
    offset = end;
  }
}

/** A server with a mixer and a shopper's order, DROP_MAX_MB above size; `env` on top (Node's memory settings), `nodeArgs` (a profiler). */
export async function startDropApp(sizeMb, env = {}, nodeArgs = []) {
  const dataDir = await mkTemp("mixtape-bench-drop-");
  const port = await freePort();
  const app = await startApp({
    dataDir,
    port,
    nodeArgs,
    env: { MIXER_EMAILS: BENCH_MIXER.email, DROP_MAX_MB: String(Math.ceil(sizeMb) + 1), LOG_LEVEL: "warn", ...env },
  });
  const agent = newAgent(4);
  const mixer = await signUpShopper(app.base, dataDir, "mixer", agent, { ...BENCH_MIXER });
  const shopper = await signUpShopper(app.base, dataDir, "drop", agent);
  const code = await placeOrder(app.base, shopper, 7, agent);
  agent.destroy();
  return {
    ...app,
    dataDir,
    mixer,
    shopper,
    code,
    async stop() {
      await stopChild(app.child);
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Start Mixing, then Send the drop (the console's plain forms): until then the tape is the mixer's draft. */
export async function sendDrop(app) {
  const post = (form) =>
    expectStatus(app.base, { method: "POST", path: "/mixer", form, jar: app.mixer.jar, headers: { origin: app.base } }, 303);
  await post({ intent: "start-mixing", code: app.code });
  await post({ intent: "mark-sent", code: app.code, deliveryUrl: "", message: "" });
}

/**
 * Timed with the server's RSS sampled (its peak, and its growth over the RSS before the run) and
 * its CPU time (user + system, from /proc), which a busy neighbour moves far less than the rate.
 */
async function timed(pid, work) {
  const before = readRssMb(pid);
  const cpuBefore = readCpuMs(pid);
  const sampler = new RssSampler(pid, 50);
  sampler.start("run");
  const started = now();
  await work();
  const ms = now() - started;
  sampler.stop();
  return { ms, cpuMs: readCpuMs(pid) - cpuBefore, rssGrowthMb: Math.max(0, sampler.peak - before), peakMb: sampler.peak };
}

// ---- Measurements ----------------------------------------------------------------------

/**
 * The upload rows: each path's rate against the bare stream's, measured alternately (bare,
 * form, tus; `rounds` times) and the median taken.
 */
export async function measureUploads({ sizeMb = num(process.env.BENCH_DROP_UPLOAD_MB, 300), rounds = 2, server = {} } = {}) {
  const app = await startDropApp(sizeMb, server.env, server.nodeArgs);
  const work = await mkTemp("mixtape-bench-drop-file-");
  try {
    const file = path.join(work, "tape.wav");
    await writeWav(file, Math.round(sizeMb * MiB));
    const bytes = (await fsp.stat(file)).size;
    // The bare stream writes where the app's store writes: the same disk (DATA_DIR).
    const sameDisk = path.join(app.dataDir, "bench-bare");
    await fsp.mkdir(sameDisk, { recursive: true });
    const runs = { bare: [], form: [], tus: [] };
    const rss = { form: 0, tus: 0 };
    const peak = { form: 0, tus: 0 };
    const cpu = { form: [], tus: [] };
    for (let i = 0; i < rounds; i++) {
      runs.bare.push(await bareCopy(file, sameDisk));
      settleDisk();
      const form = await timed(app.child.pid, () => formUpload(app, app.mixer, app.code, file));
      runs.form.push(form.ms);
      cpu.form.push(form.cpuMs);
      rss.form = Math.max(rss.form, form.rssGrowthMb);
      peak.form = Math.max(peak.form, form.peakMb);
      settleDisk();
      const tus = await timed(app.child.pid, () => tusUpload(app, app.mixer, app.code, file));
      runs.tus.push(tus.ms);
      cpu.tus.push(tus.cpuMs);
      rss.tus = Math.max(rss.tus, tus.rssGrowthMb);
      peak.tus = Math.max(peak.tus, tus.peakMb);
    }
    const rate = (ms) => bytes / MiB / (ms / 1000);
    const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const bare = rate(med(runs.bare));
    return {
      sizeMb: bytes / MiB,
      rounds,
      bareMbs: bare,
      formMbs: rate(med(runs.form)),
      tusMbs: rate(med(runs.tus)),
      formRatio: rate(med(runs.form)) / bare,
      tusRatio: rate(med(runs.tus)) / bare,
      formRssMb: rss.form,
      tusRssMb: rss.tus,
      formPeakMb: peak.form,
      tusPeakMb: peak.tus,
      // The server's CPU time per 100 MB received: what a busy neighbour moves least.
      formCpuMsPer100Mb: (med(cpu.form) / (bytes / MiB)) * 100,
      tusCpuMsPer100Mb: (med(cpu.tus) / (bytes / MiB)) * 100,
      load1: os.loadavg()[0],
    };
  } finally {
    await app.stop();
    await fsp.rm(work, { recursive: true, force: true });
  }
}

/** clients readers at once, each reading the whole file by RANGE_BYTES ranges from its own starting point. */
export async function rangeReaders(base, pathname, size, headers) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  let bytes = 0;
  const readRange = (start, end) =>
    new Promise((resolve, reject) => {
      http
        .get(new URL(pathname, base), { agent, headers: { ...headers, range: `bytes=${start}-${end}` } }, (res) => {
          if (res.statusCode !== 206) reject(new Error(`GET ${pathname} (range) answered ${res.statusCode}`));
          res.on("data", (c) => (bytes += c.length));
          res.on("end", resolve);
          res.on("error", reject);
        })
        .on("error", reject);
    });
  const ranges = Math.ceil(size / RANGE_BYTES);
  const started = now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; i < ranges; i++) {
        const r = (i + Math.floor((client * ranges) / CLIENTS)) % ranges;
        await readRange(r * RANGE_BYTES, Math.min(size, (r + 1) * RANGE_BYTES) - 1);
      }
    }),
  );
  const ms = now() - started;
  agent.destroy();
  if (bytes !== size * CLIENTS) throw new Error(`read ${bytes} bytes, expected ${size * CLIENTS}`);
  return ms;
}

/** The download rows: the app's session-bound route against nginx on the same file, alternately, `rounds` times. */
export async function measureRangeDownloads({
  sizeMb = num(process.env.BENCH_DROP_DOWNLOAD_MB, 100),
  rounds = 2,
  server = {},
} = {}) {
  const app = await startDropApp(sizeMb, server.env, server.nodeArgs);
  const work = await mkTemp("mixtape-bench-drop-file-");
  let nginx = null;
  try {
    const file = path.join(work, "tape.wav");
    await writeWav(file, Math.round(sizeMb * MiB));
    await formUpload(app, app.mixer, app.code, file);
    await sendDrop(app);
    const drops = path.join(app.dataDir, "drops", app.code);
    const stored = (await fsp.readdir(drops)).find((f) => f.endsWith(".wav"));
    if (!stored) throw new Error(`no stored tape under ${drops}`);
    const size = (await fsp.stat(path.join(drops, stored))).size;
    nginx = await startNginx(path.join(app.dataDir, "drops"));
    const cookie = app.shopper.jar.header();
    const runs = { app: [], nginx: [] };
    let rssGrowthMb = 0;
    let peakMb = 0;
    const cpu = [];
    for (let i = 0; i < rounds; i++) {
      runs.nginx.push(await rangeReaders(nginx.base, `/${app.code}/${stored}`, size, {}));
      const run = await timed(app.child.pid, () => rangeReaders(app.base, `/my-mixtapes/${app.code}/tape`, size, { cookie }));
      runs.app.push(run.ms);
      cpu.push(run.cpuMs);
      rssGrowthMb = Math.max(rssGrowthMb, run.rssGrowthMb);
      peakMb = Math.max(peakMb, run.peakMb);
    }
    const rate = (ms) => (size * CLIENTS) / MiB / (ms / 1000);
    const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    return {
      sizeMb: size / MiB,
      clients: CLIENTS,
      rangeMb: RANGE_BYTES / MiB,
      rounds,
      nginxVersion: nginx.version,
      nginxMbs: rate(med(runs.nginx)),
      appMbs: rate(med(runs.app)),
      ratio: rate(med(runs.app)) / rate(med(runs.nginx)),
      cpuMsPer100Mb: (med(cpu) / ((size * CLIENTS) / MiB)) * 100,
      rssGrowthMb,
      peakMb,
      load1: os.loadavg()[0],
    };
  } finally {
    await nginx?.stop();
    await app.stop();
    await fsp.rm(work, { recursive: true, force: true });
  }
}

// ---- As a script -----------------------------------------------------------------------

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) {
    console.error("No build: run `npx react-router build` first.");
    process.exit(1);
  }
  try {
    console.log(`load average before: ${os.loadavg().map(f2).join(" ")} on ${os.availableParallelism()} cores`);
    const uploads = await measureUploads();
    const downloads = await measureRangeDownloads();
    for (const row of dropRows({ uploads, downloads }))
      console.log(`${row.ok ? "PASS" : "FAIL"}  ${row.name}\n      ${row.measured}\n      why: ${row.reason}`);
    console.log(`load average after: ${os.loadavg().map(f2).join(" ")}`);
    console.log(JSON.stringify({ uploads, downloads }));
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
}
