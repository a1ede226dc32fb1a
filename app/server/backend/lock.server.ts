// The data-dir lock: one server process per PGlite data directory (PGlite has no lock
// of its own, and two processes on one directory silently lose rows).
//
// A kernel lock, flock(2), on DATA_DIR/mixtape.lock: taken by the flock(1) command on a
// descriptor this process opened and keeps, so the lock belongs to this process's open
// file and the kernel releases it when the process dies, however it dies. A PID written
// into a file could not tell a live owner from a reused PID. The PID in the file is
// only there to name the owner in the refusal.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureWritableDir } from "../platform/config.server";

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

/**
 * Takes DATA_DIR/mixtape.lock for this process, or throws DataDirLockedError while
 * another live process holds it. Returns the release function (closing the descriptor).
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const problem = ensureWritableDir(dataDir);
  if (problem) throw new Error(`DATA_DIR: must be a writable directory; ${problem}.`);
  const lockFile = path.resolve(dataDir, "mixtape.lock");
  const fd = fs.openSync(lockFile, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
  // The child's descriptor 3 is this one: the lock it takes stays with our open file.
  const locked = spawnSync("flock", ["--nonblock", "--exclusive", "3"], { stdio: ["ignore", "ignore", "pipe", fd] });
  if (locked.error || locked.status !== 0) {
    const owner = Number.parseInt(fs.readFileSync(fd, "utf8").trim(), 10);
    fs.closeSync(fd);
    if ((locked.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
      throw new Error("Cannot lock the data directory: the flock command is missing (install util-linux).");
    }
    if (locked.error || locked.status !== 1) {
      throw new Error(
        `Cannot lock the data directory (${lockFile}): ${locked.error?.message ?? locked.stderr.toString().trim()}`,
      );
    }
    throw new DataDirLockedError(lockFile, Number.isInteger(owner) && owner > 0 ? owner : null);
  }
  fs.ftruncateSync(fd);
  fs.writeSync(fd, `${process.pid}\n`, 0);
  let held = true;
  // The file stays (unlinking it would race a newcomer opening it); a clean stop empties it.
  const release = () => {
    if (!held) return;
    held = false;
    fs.ftruncateSync(fd);
    fs.closeSync(fd);
  };
  process.once("exit", release);
  return release;
}
