// The data-dir lock: PGlite has no lock of its own, so the server holds a lock on
// DATA_DIR/mixtape.lock, refuses to start next to a live holder, and is never fooled by
// a PID written in the file. Both kinds of lock run the same cases:
// - flock (where the command exists): the kernel releases the lock when its process dies;
// - mtime (proper-lockfile, elsewhere): a dead owner's lock goes stale after staleMs.
import "../support/env";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError, type LockMethod } from "~/server/backend/lock.server";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** proper-lockfile's shortest stale window: a dead owner's mtime lock is taken over within ~2 s. */
const STALE_MS = 2_000;

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
  });

const hasFlock = () => !spawnSync("flock", ["--version"], { stdio: "ignore" }).error;

/** Another live process holding the lock of this kind, its pid in the file. */
async function spawnHolder(method: LockMethod, lockFile: string): Promise<ChildProcess> {
  const child =
    method === "flock"
      ? // flock -o: only flock itself holds it
        spawn("sh", ["-c", `echo $$ > '${lockFile}'; exec flock -o --exclusive '${lockFile}' sleep 60`], { stdio: "ignore" })
      : // proper-lockfile with the server's options, as another server on a host without flock
        spawn(
          process.execPath,
          [
            "-e",
            `const fs = require("node:fs");
             const [file, stale] = process.argv.slice(1);
             fs.writeFileSync(file, process.pid + "\\n");
             require("proper-lockfile").lock(file, { realpath: false, stale: Number(stale) }).then(() => console.log("locked"));
             setInterval(() => {}, 60_000);`,
            lockFile,
            String(STALE_MS),
          ],
          { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
        );
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", reject);
  });
  for (let i = 0; i < 250; i++) {
    if (method === "mtime") {
      if (fs.existsSync(`${lockFile}.lock`) && fs.readFileSync(lockFile, "utf8").trim() === String(child.pid)) return child;
    } else {
      // It holds the lock once a probe with flock -n fails.
      const probe = spawn("flock", ["--nonblock", lockFile, "true"], { stdio: "ignore" });
      const code = await new Promise<number | null>((r) => probe.once("exit", r));
      if (code === 1) return child;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the other process never took the lock");
}

describe.each<LockMethod>(["flock", "mtime"])("acquireDataDirLock (%s)", (method) => {
  let dir: string;
  let lockFile: string;
  const children: ChildProcess[] = [];
  const releases: (() => void)[] = [];
  const acquire = (d = dir) => acquireDataDirLock(d, { method, staleMs: STALE_MS });

  beforeEach((context) => {
    if (method === "flock" && !hasFlock()) context.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-lock-"));
    lockFile = path.join(dir, "mixtape.lock");
  });
  afterEach(async () => {
    for (const release of releases.splice(0)) release();
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL"); // only the children this test spawned, by their own handle
        await exited(child);
      }
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const otherHolder = async () => {
    const child = await spawnHolder(method, lockFile);
    children.push(child);
    return child;
  };

  it("takes the lock, writes this pid, and releases it", async () => {
    const release = await acquire();
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
    await expect(acquire()).rejects.toThrow(DataDirLockedError); // held, even by this process's other descriptor
    release();
    expect(fs.readFileSync(lockFile, "utf8")).toBe("");
    expect(fs.existsSync(`${lockFile}.lock`)).toBe(false); // no mtime lock left behind (nor ever one with flock)
    releases.push(await acquire()); // free again
  });

  it("refuses a data dir locked by another live process, naming the lock file and its pid", async () => {
    const other = await otherHolder();
    let error: unknown;
    try {
      releases.push(await acquire());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    const locked = error as DataDirLockedError;
    expect(locked.message).toContain(lockFile);
    expect(locked.lockFile).toBe(lockFile);
    expect(locked.pid).toBe(other.pid);
    expect(locked.message).toContain(String(other.pid));
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(other.pid)); // left alone
  });

  it("takes over the lock of a process killed with SIGKILL", async () => {
    const other = await otherHolder();
    await expect(acquire()).rejects.toThrow(DataDirLockedError);
    other.kill("SIGKILL");
    await exited(other);
    const started = Date.now();
    releases.push(await acquire());
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
    // flock: at once; mtime: once the dead owner's lock went stale.
    expect(Date.now() - started).toBeLessThan(method === "flock" ? 1_000 : STALE_MS * 1.2 + 1_000);
  });

  it("is not fooled by PID reuse: a file naming another live process that holds no lock is taken over", async () => {
    // In a container the previous server may have been PID 1, and PID 1 is alive again.
    fs.writeFileSync(lockFile, "1\n");
    releases.push(await acquire());
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
  });

  it("takes over a lock file with garbage in it", async () => {
    fs.writeFileSync(lockFile, "not a pid, and longer than any pid ever written");
    releases.push(await acquire());
    expect(fs.readFileSync(lockFile, "utf8")).toBe(`${process.pid}\n`);
  });

  it("creates a missing data dir", async () => {
    const nested = path.join(dir, "does", "not", "exist");
    releases.push(await acquire(nested));
    expect(fs.existsSync(path.join(nested, "mixtape.lock"))).toBe(true);
  });
});

describe("acquireDataDirLock's choice", () => {
  it("uses flock where the command exists: no mtime lock directory", async (context) => {
    if (!hasFlock()) context.skip();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-lock-"));
    const release = await acquireDataDirLock(dir);
    expect(fs.existsSync(path.join(dir, "mixtape.lock.lock"))).toBe(false);
    release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("falls back to the mtime lock where there is no flock command (macOS, Windows, slim images)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-lock-"));
    const emptyBin = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-nobin-"));
    const savedPath = process.env.PATH;
    process.env.PATH = emptyBin; // spawnSync("flock") then fails with ENOENT
    let release: () => void;
    try {
      release = await acquireDataDirLock(dir);
    } finally {
      process.env.PATH = savedPath;
    }
    expect(fs.statSync(path.join(dir, "mixtape.lock.lock")).isDirectory()).toBe(true);
    expect(fs.readFileSync(path.join(dir, "mixtape.lock"), "utf8").trim()).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, "mixtape.lock.lock"))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(emptyBin, { recursive: true, force: true });
  });
});
