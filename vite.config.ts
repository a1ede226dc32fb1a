import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin, type ViteDevServer } from "vite";

/**
 * `npm run dev` serves through the same Express pipeline as production (server/app.ts):
 * mounted after Vite's own middleware (modules, HMR, public files), it answers every
 * page, data request and form post, reloaded from source on each change. The process's
 * parts (server/root.ts: the database and its lock, the workers…) are opened once, at the
 * first request, and kept across reloads.
 */
function appServer(): Plugin {
  type OpenRoot = { close(): Promise<unknown> };
  let root: Promise<OpenRoot> | undefined;
  return {
    name: "mixtape-app-server",
    apply: "serve",
    // Awaited when the dev server closes itself (`q`): the database checkpoints, its lock goes. A signal
    // ends the process first (React Router's child compiler, a Vite server too, exits on SIGTERM as soon
    // as it closed): the next start takes over the stale lock (docs/decisions/005-data-dir-lock.md).
    async closeServer() {
      await root?.then((parts) => parts.close()).catch(() => {});
    },
    configureServer(vite: ViteDevServer) {
      const openRoot = async (): Promise<OpenRoot> => {
        const [{ openRoot }, { getConfig }, { getLog }] = await Promise.all([
          vite.ssrLoadModule("/server/root.ts"),
          vite.ssrLoadModule("/app/server/platform/config.server.ts"),
          vite.ssrLoadModule("/app/server/platform/log.server.ts"),
        ]);
        return openRoot(getConfig(), getLog());
      };
      return () => {
        let current: { module: unknown; app: (req: unknown, res: unknown, next: (e?: unknown) => void) => void } | undefined;
        vite.middlewares.use(async (req, res, next) => {
          try {
            // One per process: a start that failed is tried again at the next request.
            root ??= openRoot().catch((error: unknown) => {
              root = undefined;
              throw error;
            });
            const parts = await root;
            const module = await vite.ssrLoadModule("/server/app.ts");
            if (current?.module !== module) {
              const build = () => vite.ssrLoadModule("virtual:react-router/server-build");
              current = { module, app: module.createApp({ build, root: parts }) };
            }
            current.app(req, res, next);
          } catch (error) {
            if (error instanceof Error) vite.ssrFixStacktrace(error);
            next(error);
          }
        });
      };
    },
  };
}

/** After the server build: the embedded database's first boot, made once here (scripts/db-template.js). */
function dbTemplate(): Plugin {
  return {
    name: "mixtape-db-template",
    apply: "build",
    // React Router 8 builds each Vite environment in turn: the server's is "ssr".
    applyToEnvironment: (environment) => environment.name === "ssr",
    closeBundle() {
      const outDir = this.environment.config.build.outDir;
      // In a process of its own: initdb's memory goes with it.
      const made = spawnSync(process.execPath, ["scripts/db-template.js", path.join(outDir, "pgdata-template")], {
        stdio: "inherit",
      });
      if (made.status !== 0) throw new Error("scripts/db-template.js failed");
    },
  };
}

export default defineConfig(({ command }) => {
  // The dev server reads .env as `npm start` does (the process environment wins), and listens on PORT.
  if (command === "serve" && fs.existsSync(".env")) process.loadEnvFile(".env");
  return {
    // The server build's entry is ours (the process: server/index.ts), not React Router's bare server build.
    environments: { ssr: { build: { rolldownOptions: { input: "./server/index.ts" } } } },
    // Rolldown's advice that plugins took most of the build: React Router's and Tailwind's transforms,
    // and our database template (PGlite's initdb, decision 019): known, and not a fault to warn of.
    build: { rolldownOptions: { checks: { bundlerTimings: false } } },
    plugins: [appServer(), tailwindcss(), reactRouter(), dbTemplate()],
    resolve: { tsconfigPaths: true },
    server: { port: devPort(), strictPort: true },
  };
});

/** PORT, as the production server reads it (3000 when unset), so email links (SITE_URL's default) match. */
function devPort(): number {
  const port = Number(process.env.PORT?.trim() || 3000);
  return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : 3000;
}
