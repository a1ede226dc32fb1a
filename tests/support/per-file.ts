// Every contract file's rhythm: what it runs on is booted once for the file, and each test
// gets a fresh one of its own, closed after it; where it cannot run here, the tests skip.
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

export type PerFile<T extends { close(): Promise<unknown> }> = {
  available: boolean;
  boot(): Promise<void>;
  fresh(): Promise<T>;
  shutdown(): Promise<void>;
};

/** Registers the file's hooks; `onFresh` gets each test's fresh one before the test runs. */
export function freshEachTest<T extends { close(): Promise<unknown> }>(
  target: PerFile<T>,
  onFresh: (fresh: T) => void | Promise<void>,
) {
  let current: T | undefined;
  beforeAll(async () => {
    if (target.available) await target.boot();
  });
  afterAll(async () => {
    if (target.available) await target.shutdown();
  });
  beforeEach(async (test) => {
    if (!target.available) return test.skip();
    current = await target.fresh();
    await onFresh(current);
  });
  afterEach(async () => {
    await current?.close().catch(() => {});
  });
}
