// The composition root: what this process holds, built once, in this order, before the server listens
// (server/main.ts) or at the dev server's first request (vite.config.ts), handed to every request
// (rootContext, server/app.ts), and closed in the reverse order (docs/decisions/025-one-composition-root.md):
//   config and log (the caller's) → mailer → backend (lock, migrations, mixers) → tape store (and its
//   check: a disk store serves one process) → rate limits (the backend's table on PostgreSQL) → order
//   emails worker → tus → tape chores (with tus's staged uploads' sweep).
// A start that fails closes what it had opened (a data-dir lock is released) and throws.
import type { Logger } from "pino";
import { openBackend } from "~/server/backend/index.server";
import type { Config } from "~/server/platform/config.server";
import { reason } from "~/server/platform/log.server";
import { createMailer } from "~/server/platform/mailer.server";
import { createRateLimits } from "~/server/platform/rate-limiter.server";
import type { Root } from "~/server/root.server";
import { checkTapeStore } from "~/server/services/drop.server";
import { startOrderEmails } from "~/server/services/order-emails.server";
import { startTapeJobs } from "~/server/services/tape-jobs.server";
import { createTusUploads } from "~/server/services/tus.server";
import { createStorage } from "~/server/storage/index.server";

export type OpenRoot = Root & {
  /** Each part that holds something, in the reverse order of its opening; resolves with their names, as closed. */
  close(): Promise<string[]>;
};

export async function openRoot(config: Config, log: Logger): Promise<OpenRoot> {
  const opened: { name: string; close: () => Promise<void> }[] = [];
  const close = async () => {
    const closed: string[] = [];
    for (const part of opened.splice(0).reverse()) {
      // One that fails does not keep the others open (the database is last, and must close).
      await part.close().catch((error) => log.error({ part: part.name, err: reason(error) }, "close failed"));
      closed.push(part.name);
    }
    return closed;
  };
  try {
    const mailer = createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      dataDir: config.DATA_DIR,
      log: (line) => log.info(line),
      logLinks: config.NODE_ENV === "development",
    });
    // PGlite checkpoints and releases the data-dir lock; PostgreSQL's pool ends.
    const backend = await openBackend(config, mailer);
    opened.push({ name: "backend", close: () => backend.close() });
    const storage = await createStorage(config);
    opened.push({ name: "tape store", close: () => storage.close() });
    await checkTapeStore(config, backend);
    const rateLimits = createRateLimits({ factor: config.RATE_LIMIT_FACTOR, counts: backend.rateLimitCounts, log });
    // Its current send finishes; the rest of its batch goes back to the queue.
    const orderEmails = startOrderEmails(backend, mailer);
    opened.push({ name: "order emails", close: () => orderEmails.stop() });
    backend.queued.orderEmails.onWake(orderEmails.nudge);
    const tapes = { storage, backend };
    const tus = createTusUploads(config, log, tapes);
    const tapeJobs = startTapeJobs({ ...tapes, keepDays: config.DROP_KEEP_DAYS, stagedSweeps: { tus: tus.sweep } });
    opened.push({ name: "tape chores", close: () => tapeJobs.stop() });
    backend.queued.tapeFiles.onWake(tapeJobs.runNow);
    return { config, log, mailer, backend, storage, rateLimits, orderEmails, tus, tapeJobs, close };
  } catch (error) {
    await close();
    throw error;
  }
}
