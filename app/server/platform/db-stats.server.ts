// What one request asked of the database: transactions (the RLS ones apart), statements and
// session reads. The request's context carries its counts into the SQL adapter (forRequest), and
// they are written on the request's log line (`res.db`); tests/system/db-trips.test.ts holds every
// route to its budget by them. A plain object handed down, not AsyncLocalStorage: on Node 20 its
// promise hooks cost GET / about a third of its rate (measured in one A/B run: 77 vs 110 req/s).

export type DbStats = { transactions: number; rls: number; statements: number; sessionReads: number };

export const newDbStats = (): DbStats => ({ transactions: 0, rls: 0, statements: 0, sessionReads: 0 });
