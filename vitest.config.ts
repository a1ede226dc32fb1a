import { defineConfig } from "vitest/config";

// Vitest runs without the React Router plugin: unit and contract tests import
// plain modules (domain code and *.server.ts adapters), never route modules.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/contract/**/*.test.ts", "tests/system/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
