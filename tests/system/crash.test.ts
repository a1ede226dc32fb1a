// Crash: the load of load.test.ts, with the server SIGKILLed (its own pid) once a
// third of the shoppers have transmitted, then restarted on the same data dir.
// - The dead process's lock file is still there; the restart takes it over.
// - Every order whose transmit got its success answer is stored, exactly once.
// - The interrupted shoppers then resume with the cookies they had (the deck lives in
//   its cookie; a transmit repeated with the same code is answered as a success and
//   stores nothing twice): in the end exactly one order per shopper, with its tracks.
// - While the restarted server runs, a second live process on the same data dir is
//   refused with a message naming the lock file.
// No answer is a 5xx; no duration is asserted.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  accounts,
  freePort,
  openDataDir,
  orderCodesOf,
  PASSWORD,
  seedShoppers,
  spawnServer,
  startServer,
  testTempDir,
  suiteTempDir,
} from "./setup";
import { drive, newRun, STEPS, type Run } from "./shoppers";

const SHOPPERS = 200;
const KILL_AFTER_TRANSMITS = 70;

describe("crash: SIGKILL mid-load, restart on the same data dir", () => {
  const dataDir = suiteTempDir("crash");
  const lockFile = path.join(dataDir, "mixtape.lock");
  const people = accounts(SHOPPERS, "crash");

  beforeAll(async () => {
    await seedShoppers(dataDir, people);
  }, 300_000);

  it("keeps every acknowledged order exactly once, takes over the stale lock, refuses a live second process", async () => {
    const port = await freePort();
    const first = await startServer({ dataDir, port });
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(first.pid));

    // Phase 1: the load, killed once KILL_AFTER_TRANSMITS transmits were acknowledged.
    const runs: Run[] = people.map((a, i) => newRun(i, a, first.url));
    let acknowledged = 0;
    let killed: Promise<unknown> | null = null;
    const onTransmitted = () => {
      if (++acknowledged === KILL_AFTER_TRANSMITS) killed = first.kill();
    };
    const phase1 = await Promise.all(runs.map((run) => drive(run, PASSWORD, onTransmitted)));
    expect(killed).not.toBeNull();
    const exit = await first.exited;
    expect(exit.signal).toBe("SIGKILL");
    const before = new Map(runs.map((r) => [r.account.email, { transmitted: r.transmitted, code: r.code }]));
    const acked = runs.filter((r) => r.transmitted);
    const interrupted = runs.filter((r) => !r.transmitted);
    const inFlightTransmits = interrupted.filter((r) => r.step === STEPS - 1).length;
    console.log(
      `crash: killed after ${acknowledged} acknowledged transmits; ${acked.length} done, ` +
        `${phase1.filter((o) => o === "lost").length} lost a connection (${inFlightTransmits} of them at transmit)`,
    );
    expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER_TRANSMITS);
    expect(interrupted.length).toBeGreaterThan(0);

    // The dead process left its lock file behind.
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(first.pid));

    // Phase 2: restart on the same data dir and port: the stale lock is taken over.
    const second = await startServer({ dataDir, port });
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(second.pid));

    // Every acknowledged order is there, exactly once (as its shopper sees it).
    for (const run of acked) {
      const page = await run.client.get("/my-mixtapes");
      expect(page.status).toBe(200);
      expect(orderCodesOf(page.body), run.account.email).toEqual([run.code]);
    }

    // A second live process on the same data dir is refused, naming the lock file.
    const intruder = spawnServer({ dataDir, port: await freePort() });
    const intruderExit = await intruder.exited;
    expect(intruderExit.code).not.toBe(0);
    expect(intruder.output()).toContain(lockFile);
    expect(intruder.output()).toContain(`pid ${second.pid}`);
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(second.pid));
    expect((await fetch(`${second.url}/readyz`)).status).toBe(200);

    // Transmits cut off by the kill: some were stored before the answer was lost.
    // Their shoppers will press Transmit again with the same code (phase 3).
    let storedUnacknowledged = 0;
    for (const run of interrupted.filter((r) => r.step === STEPS - 1)) {
      const codes = orderCodesOf((await run.client.get("/my-mixtapes")).body);
      expect(codes.length).toBeLessThanOrEqual(1);
      if (codes.length === 1) {
        expect(codes[0]).toBe(run.code);
        storedUnacknowledged++;
      }
    }
    console.log(`crash: ${storedUnacknowledged} of ${inFlightTransmits} cut-off transmits had been stored`);

    // Phase 3: the interrupted shoppers carry on from where they were.
    const phase3 = await Promise.all(interrupted.map((run) => drive(run, PASSWORD)));
    expect(phase3.every((o) => o === "done")).toBe(true);

    const statuses = runs.flatMap((r) => r.statuses);
    const unexpected = runs.flatMap((r) => r.unexpected);
    console.log(
      `crash: ${statuses.length} answers in all, ${statuses.filter((s) => s >= 500).length} 5xx, ${unexpected.length} unexpected`,
    );
    expect(unexpected.slice(0, 5)).toEqual([]);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(runs.every((r) => r.transmitted)).toBe(true);

    // The stored truth: one order per shopper with its own tracks; every order
    // acknowledged before the kill kept its code.
    expect((await second.stop()).code).toBe(0);
    expect(fs.readFileSync(lockFile, "utf8")).toBe(""); // a clean stop names no owner
    const db = await openDataDir(dataDir);
    try {
      const rows = (
        await db.query<{ email: string; code: string; tracks: { id: string }[] }>(
          `select u.email, m.code, m.tracks from public.mixtapes m join auth.users u on u.id = m.user_id`,
        )
      ).rows;
      expect(rows.length).toBe(SHOPPERS);
      for (const run of runs) {
        const mine = rows.filter((r) => r.email === run.account.email);
        expect(mine.length, run.account.email).toBe(1);
        expect(mine[0].tracks.map((t) => t.id)).toEqual(run.tracks);
        const earlier = before.get(run.account.email)!;
        if (earlier.transmitted) expect(mine[0].code).toBe(earlier.code);
      }
    } finally {
      await db.close();
    }
  }, 300_000);

  it("without the flock command (macOS, Windows, slim images): the same refusal, and a restart after SIGKILL waits out the stale lock", async () => {
    // A PATH without flock makes the server fall back to proper-lockfile's mtime lock.
    const noFlock = { PATH: testTempDir("no-flock-bin") };
    const dir = testTempDir("crash-mtime");
    const file = path.join(dir, "mixtape.lock");
    const port = await freePort();
    const first = await startServer({ dataDir: dir, port, env: noFlock });
    expect(fs.statSync(`${file}.lock`).isDirectory()).toBe(true);
    expect(fs.readFileSync(file, "utf8").trim()).toBe(String(first.pid));

    // A live owner keeps its lock fresh: a second process waits past the stale window, then is refused.
    const intruder = spawnServer({ dataDir: dir, port: await freePort(), env: noFlock });
    const intruderExit = await intruder.exited;
    expect(intruderExit.code).not.toBe(0);
    expect(intruder.output()).toContain(file);
    expect(intruder.output()).toContain(`pid ${first.pid}`);
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);

    // SIGKILL leaves the lock directory behind; the restart takes it over once it is stale.
    expect((await first.kill()).signal).toBe("SIGKILL");
    expect(fs.existsSync(`${file}.lock`)).toBe(true);
    const killedAt = Date.now();
    const second = await startServer({ dataDir: dir, port, env: noFlock });
    console.log(`crash (mtime lock): restarted ${Date.now() - killedAt} ms after the SIGKILL`);
    expect(fs.readFileSync(file, "utf8").trim()).toBe(String(second.pid));
    expect((await fetch(`${second.url}/readyz`)).status).toBe(200);

    expect((await second.stop()).code).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe("");
    expect(fs.existsSync(`${file}.lock`)).toBe(false); // a clean stop removes it
  }, 240_000);
});
