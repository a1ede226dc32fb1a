// The data-dir lock: one server process per PGlite data directory (PGlite has no lock
// of its own, and two processes on one directory silently lose rows).
import fs from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(
      `Another server process (pid ${pid}) is using this data directory. ` +
        `Its lock file is ${lockFile}. Stop that process, or set DATA_DIR to another directory.`,
    );
    this.name = "DataDirLockedError";
  }
}

export const isProcessAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Takes DATA_DIR/mixtape.lock for this process. A lock left by a dead process is
 * taken over; a live one is refused with DataDirLockedError. Returns a release
 * function, also run on exit.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.resolve(dataDir, "mixtape.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockFile, "wx", 0o600);
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      const release = () => {
        try {
          if (fs.readFileSync(lockFile, "utf8").trim() === String(process.pid)) fs.unlinkSync(lockFile);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number.parseInt(fs.readFileSync(lockFile, "utf8").trim(), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isProcessAlive(pid)) {
        throw new DataDirLockedError(lockFile, pid);
      }
      // Stale: its process is gone (or the file is garbage). Take it over.
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not take the lock file ${lockFile}.`);
}
