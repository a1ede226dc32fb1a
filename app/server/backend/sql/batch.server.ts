// The request's calls under RLS, gathered into one transaction: every call made while the session
// is read and until the event loop's next turn joins the batch and runs in order, and each is
// answered once the transaction has committed (if one fails, each runs again on its own).
// A page's loaders call at once, so a page is one RLS transaction (docs/decisions/017-one-trip.md).
import { BackendUnavailableError } from "../port.server";
import type { AsSession, Session } from "./context.server";
import { asRole, type Sql, type SqlDriver } from "./db.server";

type Job = { fn: (tx: Sql) => Promise<unknown>; resolve(value: unknown): void; reject(error: unknown): void };

function asUser(db: SqlDriver, session: Session): AsSession {
  return async (fn) => {
    const user = await session.user();
    return user ? asRole(db, "authenticated", { sub: user.id }, fn) : asRole(db, "anon", {}, fn);
  };
}

/** The jobs in order in one transaction; if one fails, all of it is undone and each runs again alone. */
async function runBatch(run: AsSession, jobs: Job[]) {
  const alone = (job: Job) => run(job.fn).then(job.resolve, job.reject);
  if (jobs.length === 1) return alone(jobs[0]);
  let values: unknown[];
  try {
    values = await run(async (tx) => {
      const answers: unknown[] = [];
      for (const job of jobs) answers.push(await job.fn(tx));
      return answers;
    });
  } catch (error) {
    if (error instanceof BackendUnavailableError) return jobs.forEach((job) => job.reject(error));
    // Rare (a refused write): nothing of the batch was kept, and each call gets its own answer.
    for (const job of jobs) await alone(job);
    return;
  }
  jobs.forEach((job, i) => job.resolve(values[i]));
}

/** The request's asSession: batched, or (BATCH_DB_CALLS=0) one transaction per call. */
export function sessionTransactions(db: SqlDriver, session: Session, batch: boolean): AsSession {
  const run = asUser(db, session);
  if (!batch) return run;
  let gathering: Job[] | null = null;
  return <T>(fn: (tx: Sql) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      if (!gathering) {
        const jobs: Job[] = (gathering = []);
        const turn = new Promise((next) => setImmediate(next));
        // The session read's own failure (an outage) is each call's, as it would be unbatched.
        void Promise.all([session.user().catch(() => null), turn]).then(() => {
          gathering = null;
          return runBatch(run, jobs);
        });
      }
      gathering.push({ fn, resolve: resolve as (value: unknown) => void, reject });
    });
}
