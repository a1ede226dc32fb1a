// Every transmitted order checked in the database once the server is stopped.
import path from "node:path";
import { dataDirLocked } from "../lib/index.js";

export async function checkOrders(dataDir, { ok, failed, seeded, emails }) {
  if (dataDirLocked(dataDir)) throw new Error(`a process still holds ${dataDir}/mixtape.lock: cannot open the database safely`);
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(path.join(dataDir, "pgdata"));
  await db.waitReady;
  try {
    const counts = new Map();
    const all = [...ok, ...failed, ...seeded];
    const { rows } = await db.query(
      `select code, count(*)::int as n from public.mixtapes where code = any($1::text[]) group by code`,
      [all],
    );
    for (const r of rows) counts.set(r.code, r.n);
    const okSet = new Set(ok);
    const lost = ok.filter((c) => (counts.get(c) ?? 0) === 0).length;
    const duplicated = [...counts.values()].filter((n) => n > 1).length;
    const storedAfterError = failed.filter((c) => counts.has(c) && !okSet.has(c)).length;
    const seededStored = seeded.filter((c) => counts.get(c) === 1).length;
    const { rows: totals } = await db.query(
      `select count(*)::int as n from public.mixtapes m join auth.users u on u.id = m.user_id where lower(u.email) = any($1::text[])`,
      [emails.map((e) => e.toLowerCase())],
    );
    return {
      successes: ok.length,
      uniqueSuccessCodes: okSet.size,
      lost,
      duplicated,
      storedAfterError,
      failedAnswers: failed.length,
      rowsForLoadShoppers: totals[0].n,
      seededStored,
      exact: lost === 0 && duplicated === 0 && okSet.size === ok.length,
    };
  } finally {
    await db.close();
  }
}
