// A background job (the order emails, the tape chores) never runs twice at once; nudges while it
// runs fold into one more run; after stop() nothing runs.
import { describe, expect, it } from "vitest";
import { backgroundJob } from "~/server/platform/background-job.server";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("backgroundJob", () => {
  it("runs at once, never twice at a time; nudges during a run make one more run", async () => {
    let runs = 0;
    let concurrent = 0;
    let most = 0;
    const gates = [gate(), gate()];
    const job = backgroundJob(
      async () => {
        const g = gates[runs++] ?? { opened: Promise.resolve() };
        most = Math.max(most, ++concurrent);
        await g.opened;
        concurrent--;
      },
      { everyMs: 3_600_000 },
    );
    expect(runs).toBe(1);
    job.nudge();
    job.nudge();
    job.nudge();
    expect(runs).toBe(1);
    gates[0].open();
    await new Promise((r) => setTimeout(r, 0));
    expect(runs).toBe(2);
    gates[1].open();
    await job.settled();
    expect(runs).toBe(2);
    expect(most).toBe(1);
    await job.stop();
    job.nudge();
    expect(runs).toBe(2);
  });

  it("a run that throws does not stop the next one", async () => {
    let runs = 0;
    const job = backgroundJob(
      async () => {
        runs++;
        throw new Error("the queue could not be read");
      },
      { everyMs: 3_600_000 },
    );
    await job.settled();
    job.nudge();
    await job.settled();
    expect(runs).toBe(2);
    await job.stop();
  });
});
