// Starting and stopping the servers the bench measures, their data dirs, and their memory.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ROOT, sleep, now } from "./common.js";
import { request } from "./http.js";

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

/**
 * Starts `node [npm start's flags] [nodeArgs] build/server/index.js`; resolves once /healthz answers 200.
 * onSpawn(child) runs as soon as the process exists (to sample its memory from its first start).
 * `root` and `node` run another checkout's build on another Node (bench/builds-ab.js); by default this
 * checkout's, on the Node running the bench.
 */
export async function startApp({ dataDir, port, nodeArgs = [], env = {}, onSpawn, root = ROOT, node = process.execPath }) {
  const since = now();
  const child = spawnLogged(node, [...START_FLAGS, ...nodeArgs, path.join(root, "build/server/index.js")], {
    cwd: root,
    env: appEnv(dataDir, port, env),
    name: "app server",
  });
  onSpawn?.(child);
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

export async function mkTemp(prefix) {
  return fsp.mkdtemp(path.join(os.tmpdir(), prefix));
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

/** CPU time (user + system) pid has used so far, in ms (/proc/PID/stat, at the kernel's 100 ticks a second). */
export function readCpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
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
