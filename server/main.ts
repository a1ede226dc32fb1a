// The production server, loaded by server/index.ts once the environment is set: opens
// the database (lock file, migrations) before it listens on PORT, and closes cleanly on
// SIGTERM. A start-up mistake gets one clear line and exit code 1.
import { ROOT } from "./load-env";
import http from "node:http";
import path from "node:path";
import * as build from "virtual:react-router/server-build";
import { getBackend } from "~/server/backend/index.server";
import { getConfig } from "~/server/platform/config.server";
import { getLog } from "~/server/platform/log.server";
import { createApp } from "./app";

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
const backend = await getBackend().catch(cannotStart);

const app = createApp({ build, clientDir: path.join(ROOT, "build/client") });
const server = http.createServer(app);
server.keepAliveTimeout = 65_000;
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

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info(`${signal}: closing`);
  server.close();
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 5_000).unref();
  try {
    await backend.close();
  } finally {
    process.exit(0);
  }
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
