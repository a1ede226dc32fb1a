// The tape store's chores, in the server: tapes kept DROP_KEEP_DAYS after the order was sent are
// deleted; files of replaced tapes and erased accounts are deleted, retried with backoff until the
// store answers (the database's queue, storage_deletions); partial uploads abandoned for a day go
// (the store's own, and the resumable uploads staged by tus: addStagedSweep).
import { getBackend } from "../backend/index.server";
import type { Backend } from "../backend/port.server";
import { backgroundJob } from "../platform/background-job.server";
import { getConfig } from "../platform/config.server";
import { getLog, reason } from "../platform/log.server";
import { getStorage, sweepPartials } from "../storage/index.server";
import type { Storage } from "../storage/port.server";

const POLL_MS = 60_000;
const SWEEP_MS = 60 * 60_000;
const BATCH = 20;

type Worker = { nudge(): void; runNow(): Promise<void>; stop(): Promise<void> };

/** Other stagings of uploads in progress (tus.server.ts registers its store's expiry): each answers how many it removed. */
const g0 = globalThis as typeof globalThis & { __mixtapeStagedSweeps?: Map<string, () => Promise<number>> };
const stagedSweeps = (g0.__mixtapeStagedSweeps ??= new Map<string, () => Promise<number>>());
export const addStagedSweep = (name: string, sweep: () => Promise<number>) => void stagedSweeps.set(name, sweep);

/** One pass: what has expired, then the queued deletions, then (hourly) the abandoned partial uploads. */
export async function tapeChores(backend: Backend, storage: Storage, keepDays: number, sweep: boolean) {
  const jobs = backend.tapes;
  if (jobs) {
    const expired = await jobs.expire(keepDays);
    if (expired > 0) getLog().info({ expired }, "tapes kept their days after sending: deleting");
    for (;;) {
      const batch = await jobs.claimDeletions(BATCH);
      for (const { key, attempts } of batch) {
        try {
          await storage.delete(key);
          await jobs.finishDeletion(key, null);
        } catch (error) {
          getLog().warn({ key, attempts, err: reason(error) }, "tape file not deleted; retrying later");
          await jobs.finishDeletion(key, reason(error));
        }
      }
      if (batch.length < BATCH) break;
    }
  }
  if (sweep) {
    const swept = await sweepPartials(storage);
    if (swept > 0) getLog().info({ swept }, "abandoned partial uploads removed");
    for (const [name, sweepStaged] of stagedSweeps) {
      const staged = await sweepStaged().catch((error: unknown) => {
        getLog().warn({ staging: name, err: reason(error) }, "staged uploads not swept this time");
        return 0;
      });
      if (staged > 0) getLog().info({ staging: name, swept: staged }, "abandoned staged uploads removed");
    }
  }
}

const g = globalThis as typeof globalThis & { __mixtapeTapeJobs?: Worker };

/** Started once per process (the dev server reloads modules). */
export function startTapeJobs(): Worker {
  if (g.__mixtapeTapeJobs) return g.__mixtapeTapeJobs;
  let lastSweep = 0;
  const job = backgroundJob(
    async () => {
      const sweep = Date.now() - lastSweep >= SWEEP_MS;
      if (sweep) lastSweep = Date.now();
      await Promise.all([getBackend(), getStorage()])
        .then(([backend, storage]) => tapeChores(backend, storage, getConfig().DROP_KEEP_DAYS, sweep))
        .catch((error) => getLog().warn({ err: reason(error) }, "tape chores: not done this time"));
    },
    { everyMs: POLL_MS, firstAfterMs: 1_000 },
  );
  g.__mixtapeTapeJobs = {
    nudge: job.nudge,
    async runNow() {
      await job.settled();
      job.nudge();
      await job.settled();
    },
    stop: job.stop,
  };
  return g.__mixtapeTapeJobs;
}

export const nudgeTapeJobs = () => g.__mixtapeTapeJobs?.nudge();

/** The queued deletions done now (an erased account's files go in the same flow); what fails stays queued. */
export const deleteQueuedTapes = async () => g.__mixtapeTapeJobs?.runNow();
