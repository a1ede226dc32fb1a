// What one request asked of the database: transactions (the RLS ones apart), statements and
// session reads, counted where the SQL adapter sends them and written on the request's log line
// (`res.db`). tests/system/db-trips.test.ts holds every route to its budget by these counts.
import { AsyncLocalStorage } from "node:async_hooks";

export type DbStats = { transactions: number; rls: number; statements: number; sessionReads: number };

const current = new AsyncLocalStorage<DbStats>();

export const newDbStats = (): DbStats => ({ transactions: 0, rls: 0, statements: 0, sessionReads: 0 });

/** Runs next (the rest of the request) with stats counting what it asks. */
export const countDbWork = (stats: DbStats, next: () => void) => current.run(stats, next);

/** Adds to the running request's counts; work outside a request (the workers) is not counted. */
export function countDb(kind: keyof DbStats) {
  const stats = current.getStore();
  if (stats) stats[kind] += 1;
}
