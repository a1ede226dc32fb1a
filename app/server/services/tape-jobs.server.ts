// The tape store's chores, in the server: tapes kept DROP_KEEP_DAYS after the order was sent are
// deleted; files of replaced tapes and erased accounts are deleted, retried with backoff until the
// store answers (the database's queue, storage_deletions); partial uploads abandoned for a day go
// (the store's own, and the resumable uploads staged by tus). Started by the composition root
// (server/root.ts), which wakes it when a request queued a deletion and stops it at shutdown.
import type { Backend } from "../backend/port.server";
import { backgroundJob } from "../platform/background-job.server";
import { getLog, reason } from "../platform/log.server";
import type { TapeJobsWorker } from "../root.server";
import { sweepPartials } from "../storage/index.server";
import type { Storage } from "../storage/port.server";

const POLL_MS = 60_000;
const SWEEP_MS = 60 * 60_000;
const BATCH = 20;

/** Other stagings of uploads in progress (tus's), by name: each removes its abandoned uploads and answers how many. */
export type StagedSweeps = Record<string, () => Promise<number>>;

/** One pass: what has expired, then the queued deletions, then (hourly) the abandoned partial uploads. */
export async function tapeChores(
  backend: Backend,
  storage: Storage,
  keepDays: number,
  sweep: boolean,
  stagedSweeps: StagedSweeps,
) {
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
    for (const [name, sweepStaged] of Object.entries(stagedSweeps)) {
      const staged = await sweepStaged().catch((error: unknown) => {
        getLog().warn({ staging: name, err: reason(error) }, "staged uploads not swept this time");
        return 0;
      });
      if (staged > 0) getLog().info({ staging: name, swept: staged }, "abandoned staged uploads removed");
    }
  }
}

type Parts = { backend: Backend; storage: Storage; keepDays: number; stagedSweeps: StagedSweeps };

/** The chores every minute (the first a second after start-up), the partial uploads' sweep hourly. */
export function startTapeJobs({ backend, storage, keepDays, stagedSweeps }: Parts): TapeJobsWorker {
  let lastSweep = 0;
  const job = backgroundJob(
    async () => {
      const sweep = Date.now() - lastSweep >= SWEEP_MS;
      if (sweep) lastSweep = Date.now();
      await tapeChores(backend, storage, keepDays, sweep, stagedSweeps).catch((error) =>
        getLog().warn({ err: reason(error) }, "tape chores: not done this time"),
      );
    },
    { everyMs: POLL_MS, firstAfterMs: 1_000 },
  );
  return {
    nudge: job.nudge,
    /** The queued deletions done now (an erased account's files go in the same flow); what fails stays queued. */
    async runNow() {
      await job.settled();
      job.nudge();
      await job.settled();
    },
    stop: job.stop,
  };
}
