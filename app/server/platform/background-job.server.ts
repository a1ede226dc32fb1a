/**
 * Work the server does beside its requests (the order emails, the tape chores): polled, and nudged when
 * a request has just made some. It never runs twice at once; a nudge while it runs runs it once more after.
 * `run` logs its own failures: a job that throws is tried again at the next poll.
 */
export type BackgroundJob = {
  nudge(): void;
  /** Resolves when the run under way, if any, has ended. */
  settled(): Promise<void>;
  /** No further runs; resolves when the one under way has ended. */
  stop(): Promise<void>;
};

export function backgroundJob(
  run: () => Promise<void>,
  { everyMs, firstAfterMs = 0 }: { everyMs: number; firstAfterMs?: number },
): BackgroundJob {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const nudge = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = run()
      .catch(() => {})
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          nudge();
        }
      });
  };
  const timer = setInterval(nudge, everyMs);
  timer.unref();
  if (firstAfterMs > 0) setTimeout(nudge, firstAfterMs).unref();
  else nudge();
  return {
    nudge,
    async settled() {
      await running;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
