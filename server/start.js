// `npm start`: builds when there is no build yet, opens the database (lock file,
// migrations), then serves the app on PORT (default 3000).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
if (fs.existsSync(path.join(root, ".env"))) process.loadEnvFile(path.join(root, ".env"));
process.env.NODE_ENV ??= "production";
const serverBuild = path.join(root, "build/server/index.js");

if (!fs.existsSync(serverBuild)) {
  console.log("No build found: building first (npm run build)...");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.js"), "build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// react-router loads as Node resolves it: its "development" build. That build differs
// from the "production" one by a single flag (ENABLE_DEV_WARNINGS: a few warning checks
// per render, and the default error page that the app's own ErrorBoundary replaces).
// Redirecting it with a module.register() resolve hook cost more than it saved: the
// hook runs in its own loader thread, measured at ~200 ms of start-up and ~10 MB of RSS,
// for no measurable change per request (docs/performance.md).
const { createApp } = await import("./app.js");
const build = await import(pathToFileURL(serverBuild).href);
const started = performance.now();
let backend;
try {
  backend = await build.entry.module.boot();
} catch (error) {
  console.error(`\nCannot start: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
}

const { port, host, ...settings } = build.entry.module.serverSettings();
const app = createApp({ build, clientDir: path.join(root, "build/client"), ...settings });
const server = app.listen(port, host, () => {
  const ms = Math.round(performance.now() - started);
  console.log(`Mixtape storefront (${backend.kind} backend, ready in ${ms} ms) at http://localhost:${server.address().port}`);
});
server.keepAliveTimeout = 65_000;

let closing = false;
async function shutdown(signal) {
  if (closing) return;
  closing = true;
  console.log(`${signal}: closing`);
  server.close();
  server.closeIdleConnections?.();
  const timer = setTimeout(() => process.exit(0), 5_000);
  timer.unref();
  try {
    await backend.close();
  } finally {
    process.exit(0);
  }
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
