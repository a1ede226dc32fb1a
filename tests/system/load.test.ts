// Load: 200 concurrent shoppers drive the production server over HTTP (127.0.0.1).
// Each logs in (seeded, confirmed accounts), adds its own 10 tracks one by one with
// its own cookies, generates a code and transmits. Then the server is stopped and its
// data dir opened: exactly 200 orders, one per shopper, each with that shopper's 10
// tracks in order, and no answer was a 5xx. Counts only: no duration is asserted.
import { describe, expect, it } from "vitest";
import { accounts, openDataDir, suiteServer } from "./setup";
import { drive, newRun, STEPS, type Run } from "./shoppers";

const SHOPPERS = 200;

describe("load: 200 concurrent shoppers", () => {
  const people = accounts(SHOPPERS, "load");
  const server = suiteServer("load", { shoppers: people });
  const { dataDir } = server;

  it("takes exactly 200 orders, each with its shopper's own 10 tracks, and never answers 5xx", async () => {
    const runs: Run[] = people.map((a, i) => newRun(i, a, server.url));
    const outcomes = await Promise.all(runs.map((run) => drive(run, "mixtape-system-pass-42")));

    const statuses = runs.flatMap((r) => r.statuses);
    const serverErrors = statuses.filter((s) => s >= 500);
    const unexpected = runs.flatMap((r) => r.unexpected);
    console.log(
      `load: ${runs.length} shoppers, ${statuses.length} requests, ` +
        `${runs.filter((r) => r.transmitted).length} transmitted, ${serverErrors.length} 5xx, ${unexpected.length} unexpected`,
    );
    expect(unexpected.slice(0, 5)).toEqual([]);
    expect(serverErrors).toEqual([]);
    expect(outcomes.every((o) => o === "done")).toBe(true);
    expect(runs.every((r) => r.transmitted && r.step === STEPS)).toBe(true);
    expect(statuses.length).toBe(SHOPPERS * STEPS);

    // The stored truth, read from the data dir once the server has let go of it.
    const exit = await server.stop();
    expect(exit.code).toBe(0);
    const db = await openDataDir(dataDir);
    try {
      const rows = (
        await db.query<{ email: string; code: string; tracks: { id: string; title: string }[] }>(
          `select u.email, m.code, m.tracks from public.mixtapes m join auth.users u on u.id = m.user_id`,
        )
      ).rows;
      expect(rows.length).toBe(SHOPPERS);
      const byEmail = new Map<string, typeof rows>();
      for (const row of rows) byEmail.set(row.email, [...(byEmail.get(row.email) ?? []), row]);
      for (const run of runs) {
        const mine = byEmail.get(run.account.email) ?? [];
        expect(mine.length, run.account.email).toBe(1);
        expect(mine[0].code).toBe(run.code);
        expect(mine[0].tracks.map((t) => t.id)).toEqual(run.tracks);
        expect(mine[0].tracks.every((t) => typeof t.title === "string" && t.title.length > 0)).toBe(true);
      }
      expect(new Set(rows.map((r) => r.code)).size).toBe(SHOPPERS);
    } finally {
      await db.close();
    }
  }, 240_000);
});
