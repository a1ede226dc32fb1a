// The data-dir lock: PGlite has no lock of its own, so the server takes
// DATA_DIR/mixtape.lock and refuses to start next to a live process.
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

  /** Another live process: a `sleep` child whose pid we write into the lock file. */
  async function liveProcess() {
    const child = spawn("sleep", ["60"], { stdio: "ignore" });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", reject);
    });
    return child;
  }

  it("takes the lock, writes this pid, and releases it", () => {
    const release = acquireDataDirLock(dir);
    releases.push(release);
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
    release();
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it("refuses a data dir locked by another live process, naming the lock file", async () => {
    const other = await liveProcess();
    fs.writeFileSync(lockFile, `${other.pid}\n`);

    let error: unknown;
    try {
      releases.push(acquireDataDirLock(dir));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    const locked = error as DataDirLockedError;
    expect(locked.message).toContain(lockFile);
    expect(locked.message).toContain(String(other.pid));
    expect(locked.lockFile).toBe(lockFile);
    expect(locked.pid).toBe(other.pid);
    // The other process's lock is left alone.
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(other.pid));
  });

  it("takes over a stale lock whose process is gone", async () => {
    const other = await liveProcess();
    const pid = other.pid!;
    other.kill("SIGKILL");
    await exited(other);
    fs.writeFileSync(lockFile, `${pid}\n`);

    const release = acquireDataDirLock(dir);
    releases.push(release);
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
  });

  it("takes over a lock file with garbage in it", () => {
    fs.writeFileSync(lockFile, "not a pid");
    releases.push(acquireDataDirLock(dir));
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
  });

  it("a refused start can succeed once the other process has stopped", async () => {
    const other = await liveProcess();
    fs.writeFileSync(lockFile, `${other.pid}\n`);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    other.kill("SIGKILL");
    await exited(other);
    releases.push(acquireDataDirLock(dir));
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
  });

  it("creates a missing data dir", () => {
    const nested = path.join(dir, "does", "not", "exist");
    releases.push(acquireDataDirLock(nested));
    expect(fs.existsSync(path.join(nested, "mixtape.lock"))).toBe(true);
  });
});
