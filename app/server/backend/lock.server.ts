// PGlite has no lock of its own, and two processes on one data directory silently lose rows.
// docs/decisions/005-data-dir-lock.md says why both flock and mtime locks.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureWritableDir } from "../platform/config.server";

export type LockMethod = "flock" | "mtime";

/** proper-lockfile's default; 2 s at least. */
export const STALE_MS = 10_000;
const RETRY_MS = 250;

export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number | null,
  ) {
    super(
      `Another server process${pid ? ` (pid ${pid})` : ""} is using this data directory. ` +
        `Its lock file is ${lockFile}. Stop that process, or set DATA_DIR to another directory.`,
    );
    this.name = "DataDirLockedError";
  }
}

function ownerOf(fd: number): number | null {
  const owner = Number.parseInt(fs.readFileSync(fd, "utf8").trim(), 10);
  return Number.isInteger(owner) && owner > 0 ? owner : null;
}

function takeFlock(fd: number, lockFile: string): "taken" | "held" | "missing" {
  // The child's descriptor 3 is ours, so the lock stays with our open file and dies with this process.
  const locked = spawnSync("flock", ["-n", "-x", "3"], { stdio: ["ignore", "ignore", "pipe", fd] });
  if (!locked.error && locked.status === 0) return "taken";
  if ((locked.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") return "missing";
  if (!locked.error && locked.status === 1) return "held";
  throw new Error(`Cannot lock the data directory (${lockFile}): ${locked.error?.message ?? locked.stderr.toString().trim()}`);
}

async function takeMtimeLock(lockFile: string, staleMs: number): Promise<(() => void) | null> {
  const lockfile = await import("proper-lockfile");
  const options = { realpath: false, stale: staleMs };
  try {
    await lockfile.lock(lockFile, {
      ...options,
      // Trying for longer than staleMs tells a crashed owner from a live one, which refreshes every staleMs / 2.
      retries: { retries: Math.ceil((staleMs * 1.2) / RETRY_MS), factor: 1, minTimeout: RETRY_MS, maxTimeout: RETRY_MS },
      onCompromised: (error) => {
        // Stop rather than let two processes write to one data directory.
        throw new Error(`Lost the data-dir lock ${lockFile}: ${error.message}`);
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED") return null;
    throw new Error(`Cannot lock the data directory (${lockFile}): ${(error as Error).message}`);
  }
  return () => {
    try {
      lockfile.unlockSync(lockFile, options);
    } catch {
      // already released (proper-lockfile removes its locks itself at exit)
    }
  };
}

export async function acquireDataDirLock(
  dataDir: string,
  opts: { method?: LockMethod; staleMs?: number } = {},
): Promise<() => void> {
  const problem = ensureWritableDir(dataDir);
  if (problem) throw new Error(`DATA_DIR: must be a writable directory; ${problem}.`);
  const lockFile = path.resolve(dataDir, "mixtape.lock");
  const fd = fs.openSync(lockFile, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
  let unlock = () => {};
  try {
    const flock = opts.method === "mtime" ? "missing" : takeFlock(fd, lockFile);
    if (flock === "missing" && opts.method === "flock") {
      throw new Error("Cannot lock the data directory: the flock command is missing.");
    }
    if (flock === "missing") {
      const release = await takeMtimeLock(lockFile, opts.staleMs ?? STALE_MS);
      if (!release) throw new DataDirLockedError(lockFile, ownerOf(fd));
      unlock = release;
    } else if (flock === "held") throw new DataDirLockedError(lockFile, ownerOf(fd));
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  fs.ftruncateSync(fd);
  fs.writeSync(fd, `${process.pid}\n`, 0);
  let held = true;
  // Unlinking the file would race a newcomer opening it.
  const release = () => {
    if (!held) return;
    held = false;
    process.off("exit", release);
    fs.ftruncateSync(fd);
    fs.closeSync(fd);
    unlock();
  };
  process.once("exit", release);
  return release;
}
