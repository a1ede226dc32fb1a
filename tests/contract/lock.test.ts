// The data-dir lock: PGlite has no lock of its own, so the server holds a kernel lock
// (flock) on DATA_DIR/mixtape.lock, refuses to start next to a live holder, and is
// never fooled by a PID written in the file: the kernel releases the lock when its
// process dies, whatever PID the file names.
import "../support/env";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError } from "~/server/backend/lock.server";

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
  });

describe("acquireDataDirLock", () => {
  let dir: string;
  let lockFile: string;
  const children: ChildProcess[] = [];
  const releases: (() => void)[] = [];

  beforeEach(() => {
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
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Another live process holding the kernel lock (flock -o: only flock itself holds it), its pid in the file. */
  async function otherHolder() {
    const child = spawn("sh", ["-c", `echo $$ > '${lockFile}'; exec flock -o --exclusive '${lockFile}' sleep 60`], {
      stdio: "ignore",
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", reject);
    });
    // Wait until it holds the lock: a probe with flock -n fails then.
    for (let i = 0; i < 100; i++) {
      const probe = spawn("flock", ["--nonblock", lockFile, "true"], { stdio: "ignore" });
      const code = await new Promise<number | null>((r) => probe.once("exit", r));
      if (code === 1) return child;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("the other process never took the lock");
  }

  it("takes the lock, writes this pid, and releases it", () => {
    const release = acquireDataDirLock(dir);
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError); // held, even by this process's other descriptor
    release();
    expect(fs.readFileSync(lockFile, "utf8")).toBe("");
    releases.push(acquireDataDirLock(dir)); // free again
  });

  it("refuses a data dir locked by another live process, naming the lock file and its pid", async () => {
    const other = await otherHolder();
    let error: unknown;
    try {
      releases.push(acquireDataDirLock(dir));
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

  it("the kernel releases the lock of a process killed with SIGKILL", async () => {
    const other = await otherHolder();
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    other.kill("SIGKILL");
    await exited(other);
    releases.push(acquireDataDirLock(dir));
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
  });

  it("is not fooled by PID reuse: a file naming another live process that holds no lock is taken over", () => {
    // In a container the previous server may have been PID 1, and PID 1 is alive again.
    fs.writeFileSync(lockFile, "1\n");
    releases.push(acquireDataDirLock(dir));
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
  });

  it("takes over a lock file with garbage in it", () => {
    fs.writeFileSync(lockFile, "not a pid, and longer than any pid ever written");
    releases.push(acquireDataDirLock(dir));
    expect(fs.readFileSync(lockFile, "utf8")).toBe(`${process.pid}\n`);
  });

  it("creates a missing data dir", () => {
    const nested = path.join(dir, "does", "not", "exist");
    releases.push(acquireDataDirLock(nested));
    expect(fs.existsSync(path.join(nested, "mixtape.lock"))).toBe(true);
  });
});
