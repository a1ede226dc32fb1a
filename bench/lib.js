// Shared helpers of the benchmark harness (bench/run.js, bench/profile.js):
// a small keep-alive HTTP client with a cookie jar, starting and stopping servers,
// seeding shoppers through the real forms, load loops and statistics.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(BENCH_DIR, "..");
export const PASSWORD = "correct-horse-42";
/**
 * What a browser sends; both the app and the baseline compress with it.
 * BENCH_ACCEPT_ENCODING=identity measures without compression.
 */
export const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING || "gzip, deflate, br";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const now = () => performance.now();

// ---- Statistics --------------------------------------------------------------------

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const median = (values) => {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---- HTTP client with cookies ------------------------------------------------------

/** Cookies of one shopper (name -> value), fed by Set-Cookie headers. */
export class Jar {
  constructor(entries = []) {
    this.map = new Map(entries);
  }
  update(setCookies) {
    for (const line of setCookies ?? []) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => {
        const [k, v = ""] = a.trim().split("=");
        if (k.toLowerCase() === "max-age") return Number(v) <= 0;
        if (k.toLowerCase() === "expires") return Date.parse(v) < Date.now();
        return false;
      });
      if (expired || value === "") this.map.delete(name);
      else this.map.set(name, value);
    }
    return this;
  }
  get(name) {
    return this.map.get(name);
  }
  /** The Cookie header, optionally limited to some names. */
  header(names) {
    return [...this.map]
      .filter(([n]) => !names || names.includes(n))
      .map(([n, v]) => `${n}=${v}`)
      .join("; ");
  }
  clone() {
    return new Jar(this.map);
  }
}

export const newAgent = (maxSockets = 64) => new http.Agent({ keepAlive: true, maxSockets });

/**
 * One HTTP request. Resolves with status, headers, setCookies, body (string unless
 * raw) and ms (request start to last byte). Never follows redirects.
 */
export function request(
  base,
  { method = "GET", path: p = "/", headers = {}, form, body: given, jar, agent, raw = false, timeout = 30_000 },
) {
  const url = new URL(p, base);
  const body = form ? new URLSearchParams(form).toString() : given;
  const h = { ...headers };
  if (jar && jar.map.size) h.cookie = jar.header();
  if (form) h["content-type"] = "application/x-www-form-urlencoded";
  if (body !== undefined) h["content-length"] = Buffer.byteLength(body);
  return new Promise((resolve, reject) => {
    const started = now();
    const req = http.request(url, { method, headers: h, agent }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const buf = Buffer.concat(chunks);
        const setCookies = [].concat(res.headers["set-cookie"] ?? []);
        if (jar) jar.update(setCookies);
        resolve({
          status: res.statusCode,
          headers: res.headers,
          setCookies,
          body: raw ? buf : buf.toString("utf8"),
          ms: now() - started,
        });
      });
      res.on("error", reject);
    });
    req.setTimeout(timeout, () => req.destroy(new Error(`timeout: ${method} ${p}`)));
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A request that must answer one of the expected statuses. */
export async function expectStatus(base, opts, expected) {
  const res = await request(base, opts);
  const ok = Array.isArray(expected) ? expected.includes(res.status) : res.status === expected;
  if (!ok) {
    const snippet = typeof res.body === "string" ? res.body.slice(0, 300).replace(/\s+/g, " ") : "";
    throw new Error(`${opts.method ?? "GET"} ${opts.path} answered ${res.status}, expected ${expected}: ${snippet}`);
  }
  return res;
}

// ---- Processes ---------------------------------------------------------------------

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Every child this process started, so a crash still ends them (by pid). */
export const children = new Set();

/** Spawns a process whose output is kept (last 64 KB) for error messages. */
export function spawnLogged(cmd, args, { cwd = ROOT, env, name }) {
  const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  child.log = "";
  const keep = (d) => {
    child.log += d.toString();
    if (child.log.length > 65_536) child.log = child.log.slice(-65_536);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  child.name = name ?? cmd;
  child.exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  children.add(child);
  child.exited.then(() => children.delete(child));
  return child;
}

/** Polls url until it answers 200; returns ms since `since`. */
export async function waitFor200(url, child, since, timeoutMs = 60_000) {
  const agent = new http.Agent({ keepAlive: false });
  while (now() - since < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`${child.name} exited (${child.exitCode}) before answering:\n${child.log}`);
    try {
      const res = await request(url, { path: url, agent, timeout: 2_000 });
      if (res.status === 200) return now() - since;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  throw new Error(`${child.name} did not answer 200 at ${url} within ${timeoutMs} ms:\n${child.log}`);
}

/**
 * Whether a process holds DATA_DIR/mixtape.lock (a flock(2) lock; the file itself stays
 * after a clean stop, emptied, so its existence proves nothing).
 */
export function dataDirLocked(dataDir) {
  const lockFile = path.join(dataDir, "mixtape.lock");
  if (!fs.existsSync(lockFile)) return false;
  const r = spawnSync("flock", ["--nonblock", "--exclusive", lockFile, "true"], { stdio: "ignore" });
  if (r.error) throw new Error(`cannot test the lock ${lockFile}: ${r.error.message}`);
  return r.status !== 0;
}

/** SIGTERM, then SIGKILL after graceMs. Resolves with the exit. */
export async function stopChild(child, graceMs = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exited;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), graceMs);
  const result = await child.exited;
  clearTimeout(timer);
  return result;
}

export function appEnv(dataDir, port, extra = {}) {
  const env = { ...process.env };
  for (const k of ["DATABASE_URL", "SUPABASE_URL", "SUPABASE_ANON_KEY", "SESSION_SECRET", "SMTP_URL", "SITE_URL", "TRUST_PROXY"])
    delete env[k];
  return {
    ...env,
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    RATE_LIMIT_FACTOR: "10000",
    ...extra,
  };
}

/** The node flags of `npm start` (package.json), so the bench runs the server as deployed. */
export const START_FLAGS =
  JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start.match(/--[\w-]+(=\S+)?/g) ?? [];

/** Starts `node [npm start's flags] [nodeArgs] build/server/index.js`; resolves once /healthz answers 200. */
export async function startApp({ dataDir, port, nodeArgs = [], env = {} }) {
  const since = now();
  const child = spawnLogged(process.execPath, [...START_FLAGS, ...nodeArgs, path.join(ROOT, "build/server/index.js")], {
    env: appEnv(dataDir, port, env),
    name: "app server",
  });
  const base = `http://127.0.0.1:${port}`;
  const ms = await waitFor200(`${base}/healthz`, child, since);
  return { child, base, startupMs: ms };
}

export function runNode(args, { cwd = ROOT, env = process.env, name } = {}) {
  const child = spawnLogged(process.execPath, args, { cwd, env, name });
  return child.exited.then(({ code, signal }) => {
    if (code !== 0) throw new Error(`${name ?? args.join(" ")} failed (${code ?? signal}):\n${child.log}`);
    return child.log;
  });
}

// ---- Memory ------------------------------------------------------------------------

export function readRssMb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Samples VmRSS of pid every intervalMs while running; peak per label. */
export class RssSampler {
  constructor(pid, intervalMs = 100) {
    this.pid = pid;
    this.intervalMs = intervalMs;
    this.peaks = {};
    this.label = null;
    this.timer = null;
  }
  start(label) {
    this.label = label;
    this.sample();
    this.timer ??= setInterval(() => this.sample(), this.intervalMs);
  }
  sample() {
    if (!this.label) return;
    const mb = readRssMb(this.pid);
    if (Number.isFinite(mb)) this.peaks[this.label] = Math.max(this.peaks[this.label] ?? 0, mb);
  }
  stop() {
    this.sample();
    this.label = null;
    clearInterval(this.timer);
    this.timer = null;
  }
  get peak() {
    return Math.max(0, ...Object.values(this.peaks));
  }
}

// ---- Seeding through the real forms -------------------------------------------------

export function newIdentity(prefix) {
  const id = crypto.randomBytes(4).toString("hex");
  return { username: `${prefix}_${id}`, email: `${prefix}.${id}@example.com`, password: PASSWORD };
}

export async function readMail(dataDir, to, timeoutMs = 20_000) {
  const outbox = path.join(dataDir, "outbox");
  const until = now() + timeoutMs;
  while (now() < until) {
    const files = (await fsp.readdir(outbox).catch(() => []))
      .filter((f) => f.endsWith(".json"))
      .sort()
      .reverse();
    for (const f of files) {
      let mail;
      try {
        mail = JSON.parse(await fsp.readFile(path.join(outbox, f), "utf8"));
      } catch {
        continue; // still being written: read it on the next pass
      }
      if (mail.to === to) return mail;
    }
    await sleep(50);
  }
  throw new Error(`no mail to ${to} in ${outbox}`);
}

/** Signs a shopper up through /auth, opens the confirmation link, lands on /. */
export async function signUpShopper(base, dataDir, prefix, agent, identity = newIdentity(prefix)) {
  const s = identity;
  const jar = new Jar();
  const res = await expectStatus(
    base,
    {
      method: "POST",
      path: "/auth?mode=signup",
      form: { mode: "signup", username: s.username, email: s.email, password: s.password },
      jar,
      agent,
    },
    [302, 303],
  );
  if (!String(res.headers.location).startsWith("/auth")) throw new Error(`sign-up redirected to ${res.headers.location}`);
  const mail = await readMail(dataDir, s.email);
  const link = mail.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no link in the mail to ${s.email}`);
  const u = new URL(link);
  const confirmed = await expectStatus(base, { path: u.pathname + u.search, jar, agent }, [302, 303]);
  if (confirmed.headers.location !== "/") throw new Error(`confirmation redirected to ${confirmed.headers.location}`);
  const home = await expectStatus(base, { path: "/", jar, agent }, 200);
  if (!home.body.includes(s.username)) throw new Error(`/ after confirming does not show ${s.username}`);
  if (!jar.get("mixtape-auth") || !jar.get("mixtape-deck")) throw new Error(`missing cookies after sign-up: ${jar.header()}`);
  return { ...s, jar };
}

/** POST / intent=... (a plain form post, no JavaScript): answers 303. */
export async function deckIntent(base, shopper, form, agent) {
  return expectStatus(base, { method: "POST", path: "/", form, jar: shopper.jar, agent }, 303);
}

export const countMatches = (html, re) => (html.match(re) ?? []).length;

/** The order code shown in the review dialog (server-rendered). */
export function orderCodeIn(html) {
  return /data-testid="order-code"[^>]*>([A-Z0-9]{8})</.exec(html)?.[1] ?? null;
}

/** The deck inside a mixtape-deck cookie value (signed, not encrypted). */
export function decodeDeckCookie(value) {
  const v = decodeURIComponent(value);
  const dot = v.lastIndexOf(".");
  const json = decodeURIComponent(escape(Buffer.from(v.slice(0, dot), "base64").toString("latin1")));
  return JSON.parse(json).deck;
}

/** Where a successful transmit of `code` redirects: home, showing the placed order. */
export const transmittedTo = (location, code) => location === "/" || location === `/?placed=${code}`;

/** One realistic order: add a track, generate a code, read it, transmit it. */
export async function placeOrder(base, shopper, songId, agent) {
  await deckIntent(base, shopper, { intent: "add", songId: String(songId) }, agent);
  const gen = await expectStatus(
    base,
    { method: "POST", path: "/review", form: { intent: "generate-code" }, jar: shopper.jar, agent },
    303,
  );
  const review = await expectStatus(base, { path: gen.headers.location, jar: shopper.jar, agent }, 200);
  const code = orderCodeIn(review.body);
  if (!code) throw new Error("no order code on /review");
  const sent = await expectStatus(
    base,
    { method: "POST", path: "/review", form: { intent: "transmit", code }, jar: shopper.jar, agent },
    303,
  );
  if (!transmittedTo(sent.headers.location, code)) throw new Error(`transmit redirected to ${sent.headers.location}`);
  return code;
}

// ---- Many orders: the mixer's console and a shopper with 500 ----------------------------

/** The mixer of the many-orders scenarios: its email goes into MIXER_EMAILS. */
export const BENCH_MIXER = { username: "bench_mixer", email: "bench.mixer@example.com", password: PASSWORD };

/**
 * On a first boot (MIXER_EMAILS naming `mixer`): the mixer, the shopper who will have
 * many orders, and a shopper who places one real order that the seeded ones copy.
 */
export async function seedManyAccounts(base, dataDir, mixer = BENCH_MIXER) {
  const agent = newAgent(4);
  const m = await signUpShopper(base, dataDir, "mixer", agent, { ...mixer });
  const many = await signUpShopper(base, dataDir, "many", agent);
  const bulk = await signUpShopper(base, dataDir, "bulk", agent);
  for (let id = 1; id <= 5; id++) await deckIntent(base, bulk, { intent: "add", songId: String(id * 3) }, agent);
  const template = await placeOrder(base, bulk, 20, agent);
  agent.destroy();
  return { mixer: m, many, bulk, template };
}

/**
 * `total` orders written straight into a stopped server's database (the newest `many` the
 * `many` shopper's, the rest the `bulk` shopper's), each a copy of the template order's
 * tracks, options and note, 7 minutes apart, a fifth sent, a fifth mixing, a third paid (a ledger row each).
 * No order emails are queued for them (triggers off for this session), so the server's
 * email worker does not send thousands of mails during the measurements. Resolves with
 * the number of orders in the database.
 */
export async function seedManyOrders(dataDir, { many, bulk, template }, { total, many: manyCount }) {
  if (dataDirLocked(dataDir)) throw new Error(`a process still holds ${dataDir}/mixtape.lock: cannot seed the database safely`);
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(path.join(dataDir, "pgdata"));
  await db.waitReady;
  try {
    const idOf = async (email) => {
      const { rows } = await db.query(`select id from auth.users where lower(email) = lower($1)`, [email]);
      if (!rows[0]) throw new Error(`no user ${email} in the database`);
      return rows[0].id;
    };
    const manyId = await idOf(many.email);
    const bulkId = await idOf(bulk.email);
    const { rows } = await db.query(`select tracks, toggles, note, design_id from public.mixtapes where code = $1`, [template]);
    if (!rows[0]) throw new Error(`the template order ${template} is not in the database`);
    const t = rows[0];
    await db.exec("set session_replication_role = replica");
    await db.query(
      `insert into public.mixtapes (user_id, code, tracks, toggles, note, design_id, created_at, status)
       select case when i <= $1 then $2::uuid else $3::uuid end,
              'S' || upper(lpad(to_hex(i), 7, '0')),
              $4::jsonb, $5::jsonb, $6, $7,
              now() - make_interval(mins => i * 7),
              case i % 5 when 0 then 'sent' when 1 then 'mixing' else 'received' end
         from generate_series(1, $8::int) as i`,
      [manyCount, manyId, bulkId, JSON.stringify(t.tracks), JSON.stringify(t.toggles), t.note, t.design_id, total],
    );
    // A third paid: one ledger row each, $10 to $20, an hour after it was placed.
    await db.query(
      `insert into public.payment_events (provider, event_id, kind, code, amount, currency, reference, order_id, received_at)
       select 'checkout', 'seed-' || m.id, 'payment', m.code, (1000 + (m.id * 53) % 1000)::int, 'USD', 'seed-' || m.id, m.id,
              m.created_at + interval '1 hour'
         from public.mixtapes m
        where m.code ~ '^S[0-9A-F]{7}$' and ('x' || lpad(substr(m.code, 2), 8, '0'))::bit(32)::int % 3 = 0`,
    );
    await db.exec("set session_replication_role = origin; analyze public.mixtapes; analyze public.payment_events;");
    const { rows: n } = await db.query(`select count(*)::int as n from public.mixtapes`);
    return n[0].n;
  } finally {
    await db.close();
  }
}

// ---- Load --------------------------------------------------------------------------

export function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ ...opts, headers: { "accept-encoding": ACCEPT_ENCODING, ...opts.headers } }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

/**
 * GET load with autocannon: warm-up, then a measured run. Every answer other than
 * `expect` (200) counts as an error, as do socket errors and timeouts.
 */
export async function cannonGet({ base, path: p, cookie, connections, warmupS, durationS, onPhase }) {
  const opts = { url: base + p, connections, headers: cookie ? { cookie } : {}, timeout: 10 };
  onPhase?.("warm-up");
  await cannon({ ...opts, duration: warmupS });
  onPhase?.("measure");
  const r = await cannon({ ...opts, duration: durationS });
  const total = r.requests.total;
  const seconds = r.duration;
  return {
    requests: total,
    seconds,
    rps: total / seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors + r.timeouts + r.non2xx,
    bytesPerReq: total ? r.throughput.total / total : 0,
    load1: os.loadavg()[0],
  };
}

/**
 * GET load in an open loop with autocannon's overallRate: `rate` requests per second
 * whatever the answers (as long as one of the `connections` is free), after a warm-up at
 * the same rate. Latency is measured from each request's send.
 */
export async function cannonRate({ base, path: p, cookie, connections, rate, warmupS, durationS }) {
  const opts = { url: base + p, connections, overallRate: rate, headers: cookie ? { cookie } : {}, timeout: 10 };
  await cannon({ ...opts, duration: warmupS });
  const r = await cannon({ ...opts, duration: durationS });
  return {
    requests: r.requests.total,
    seconds: r.duration,
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors + r.timeouts + r.non2xx,
    load1: os.loadavg()[0],
  };
}

/**
 * An open loop: step(i) starts every 1/rate s on schedule, on a free client i (of
 * `clients`). Latency counts from the scheduled start, so a queue behind a slow answer
 * shows in it (no coordinated omission). A tick that finds every client busy waits for
 * one; the wait is part of its latency.
 */
export async function openLoop({ clients, rate, durationMs, step }) {
  const free = Array.from({ length: clients }, (_, i) => i);
  const waiting = [];
  const take = () => (free.length ? Promise.resolve(free.pop()) : new Promise((r) => waiting.push(r)));
  const give = (i) => (waiting.length ? waiting.shift()(i) : free.push(i));
  const latencies = [];
  const errorSamples = [];
  let errors = 0;
  const started = now();
  const jobs = [];
  for (let k = 0; ; k++) {
    const at = started + (k * 1000) / rate;
    if (at - started >= durationMs) break;
    const wait = at - now();
    if (wait > 0) await sleep(wait);
    jobs.push(
      take().then(async (i) => {
        try {
          const r = await step(i);
          if (r.ok) latencies.push(now() - at);
          else {
            errors++;
            if (errorSamples.length < 5) errorSamples.push(r.error ?? "unexpected answer");
          }
        } catch (e) {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(e.message);
        } finally {
          give(i);
        }
      }),
    );
  }
  await Promise.all(jobs);
  const seconds = (now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: jobs.length,
    seconds,
    rps: jobs.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
    errors,
    errorSamples,
    load1: os.loadavg()[0],
  };
}

/**
 * A closed loop of `workers` virtual clients, each calling step(i) until the time is
 * up (or step returns null: nothing left to do). step resolves {ok, ms}.
 */
export async function closedLoop({ workers, durationMs, step }) {
  const latencies = [];
  const byKind = {};
  let errors = 0;
  let done = 0;
  const errorSamples = [];
  const started = now();
  const until = started + durationMs;
  let lastEnd = started;
  await Promise.all(
    Array.from({ length: workers }, async (_, i) => {
      while (now() < until) {
        let r;
        try {
          r = await step(i);
        } catch (e) {
          r = { ok: false, ms: NaN, error: e.message };
        }
        if (r === null) break;
        lastEnd = now();
        done++;
        if (r.ok) {
          latencies.push(r.ms);
          if (r.kind) (byKind[r.kind] ??= []).push(r.ms);
        } else {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(r.error ?? "unexpected answer");
        }
      }
    }),
  );
  const seconds = (lastEnd - started) / 1000;
  latencies.sort((a, b) => a - b);
  const kinds = {};
  for (const [kind, list] of Object.entries(byKind)) {
    list.sort((a, b) => a - b);
    kinds[kind] = { count: list.length, p50: percentile(list, 50), p99: percentile(list, 99) };
  }
  return {
    kinds,
    requests: done,
    seconds,
    rps: done / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
    errors,
    errorSamples,
    load1: os.loadavg()[0],
  };
}

export async function mkTemp(prefix) {
  return fsp.mkdtemp(path.join(os.tmpdir(), prefix));
}

// ---- Transmit ---------------------------------------------------------------------

/**
 * Deck cookies with fresh order codes, generated through POST /review
 * intent=generate-code from each client's current deck (a code per cookie).
 */
export async function transmitPools(base, clients, perClient, maxMs) {
  const agent = newAgent(clients.length);
  const until = now() + maxMs;
  const pools = await Promise.all(
    clients.map(async (c) => {
      const cookie = c.jar.header(["mixtape-auth", "mixtape-deck"]);
      const pool = [];
      while (pool.length < perClient && now() < until) {
        const res = await request(base, {
          method: "POST",
          path: "/review",
          form: { intent: "generate-code" },
          headers: { cookie },
          agent,
        });
        if (res.status !== 303) throw new Error(`generate-code answered ${res.status}`);
        const deck = new Jar().update(res.setCookies).get("mixtape-deck");
        const code = decodeDeckCookie(deck).code;
        pool.push({ code, cookie: `mixtape-auth=${c.jar.get("mixtape-auth")}; mixtape-deck=${deck}` });
      }
      return pool;
    }),
  );
  // The code read from the cookie is the one the review dialog shows.
  const sample = pools[0][0];
  const review = await expectStatus(base, { path: "/review", headers: { cookie: sample.cookie }, agent }, 200);
  if (orderCodeIn(review.body) !== sample.code) throw new Error("the decoded order code differs from the one on /review");
  agent.destroy();
  return pools;
}

export function transmitStep(base, pools, agent, ledger) {
  return async (i) => {
    const item = pools[i].pop();
    if (!item) return null;
    const started = now();
    let res;
    try {
      res = await request(base, {
        method: "POST",
        path: "/review",
        form: { intent: "transmit", code: item.code },
        headers: { cookie: item.cookie },
        agent,
      });
    } catch (e) {
      ledger.failed.push(item.code);
      return { ok: false, error: e.message };
    }
    if (res.status === 303 && transmittedTo(res.headers.location, item.code)) {
      ledger.ok.push(item.code);
      return { ok: true, ms: now() - started };
    }
    ledger.failed.push(item.code);
    return { ok: false, error: `transmit answered ${res.status}` };
  };
}
