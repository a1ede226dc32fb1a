// The production server, loaded by server/index.ts once the environment is set: reads the
// configuration, opens the process's parts (server/root.ts: the database with its lock file and
// migrations, the tape store, the workers…) before it listens on PORT, and closes cleanly on
// SIGTERM or SIGINT (close-with-grace), the parts in the reverse order of their opening. A start-up
// mistake gets one clear line and exit code 1.
import { ROOT } from "./load-env";
import path from "node:path";
import closeWithGrace from "close-with-grace";
import * as build from "virtual:react-router/server-build";
import { COPY } from "~/domain/copy";
import { settleAfterAnswer } from "~/server/platform/after-answer.server";
import { getConfig } from "~/server/platform/config.server";
import { getLog, reason } from "~/server/platform/log.server";
import { uploadBodyTimeoutMs } from "~/server/platform/upload.server";
import { createApp } from "./app";
import { BODY_TIMEOUT_MS, HEADERS_TIMEOUT_MS } from "./bodies";
import { drainableServer } from "./drain";
import { openRoot } from "./root";

/** After the requests' grace: the work queued after answers, then the parts (the email worker's send, the database…). */
const CLOSE_MS = 5_000;

process.chdir(ROOT);
const started = performance.now();

function cannotStart(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Cannot start: ${message}\n`);
  process.exit(1);
}

const config = (() => {
  try {
    return getConfig();
  } catch (error) {
    return cannotStart(error);
  }
})();
const log = getLog();
const root = await openRoot(config, log).catch(cannotStart);
const { backend } = root;

const app = createApp({ build, clientDir: path.join(ROOT, "build/client"), root });
const { server, stop } = drainableServer(app, COPY.errors.unavailable);
server.keepAliveTimeout = 65_000;
// Headers within 30 s. A body's deadline is per route (server/bodies.ts: 30 s, an upload's own once its
// sender may upload); Node's requestTimeout, server-wide, only backs the longest of them.
server.headersTimeout = HEADERS_TIMEOUT_MS;
server.requestTimeout = uploadBodyTimeoutMs(config) + BODY_TIMEOUT_MS;
server.once("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EADDRINUSE") cannotStart(`port ${config.PORT} is already in use. Stop the other server or set PORT.`);
  if (error.code === "EACCES")
    cannotStart(`no permission to listen on port ${config.PORT}. Choose a port above 1023 or set PORT.`);
  cannotStart(error);
});
server.listen(config.PORT, config.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  const ms = Math.round(performance.now() - started);
  log.info(
    { backend: backend.kind, ms, port },
    `Mixtape storefront (${backend.kind} backend, ready in ${ms} ms) at http://localhost:${port}`,
  );
  if (!config.SITE_URL)
    log.warn(`SITE_URL is not set: email links point at ${config.siteUrl}. Set SITE_URL to the public origin.`);
});

// On SIGTERM or SIGINT: stop accepting, let the requests in flight finish (up to
// SHUTDOWN_GRACE_MS), run the work queued after their answers, then close the parts in the reverse
// order of their opening (the tape chores' run, the email worker's current send, the tape store, the
// database: PGlite checkpoints, the data-dir lock is released), exit 0.
// A second signal exits at once (1); so does a close that outlasts the grace by CLOSE_MS.
closeWithGrace(
  {
    delay: config.SHUTDOWN_GRACE_MS + CLOSE_MS,
    logger: { error: (message: unknown) => log.error(String(message)) },
  },
  async ({ signal, err }) => {
    if (err) log.error({ err: err.stack ?? reason(err) }, "closing after an uncaught error");
    else log.info({ graceMs: config.SHUTDOWN_GRACE_MS }, `${signal ?? "exit"}: closing`);
    const { cut, refused, unheard } = await stop(config.SHUTDOWN_GRACE_MS);
    if (refused > 0) log.info({ refused }, `${refused} requests that came after the signal were answered 503`);
    if (unheard > 0) log.info({ unheard }, `${unheard} connections closed before they sent a request`);
    if (cut > 0) log.warn({ cut }, `${cut} requests still running after SHUTDOWN_GRACE_MS were cut off`);
    await settleAfterAnswer();
    log.info({ parts: await root.close() }, "closed");
  },
);
