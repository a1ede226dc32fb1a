import os from "node:os";
import { defineConfig } from "vitest/config";

// Vitest runs without the React Router plugin: unit and contract tests import
// plain modules (domain code and *.server.ts adapters), never route modules.
// Three projects, one run (`npx vitest run`, one report): the "system" project's tests
// start the production server, so its global setup builds build/ first when it is
// stale; vitest runs a project's global setup only when the run has files of it, so
// `npx vitest run tests/unit` never builds.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Vitest's default (cores - 1) is one file at a time here; the system tests mostly wait on their servers.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "contract",
          include: ["tests/contract/**/*.test.ts"],
          exclude: ["tests/contract/scale-out.test.ts"],
          // One migrated PGlite dump and PostgreSQL data directory that every file copies (~5 s a file saved).
          globalSetup: ["tests/support/contract-setup.ts"],
          // A worker's files share its modules, so the backend files share one PGlite (tests/support/adapters.ts).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "system",
          // scale-out starts two production servers on one PostgreSQL: it needs the build too.
          include: ["tests/system/**/*.test.ts", "tests/contract/scale-out.test.ts"],
          globalSetup: ["tests/support/build.ts"],
        },
      },
    ],
  },
});
