// The production build prints no warning, and builds what `npm start` runs: a warning nobody reads
// is how a deprecation (React Router's future flags, Vite's `envFile`) turns into a break at the
// next major (docs/decisions/010-envfile-warning.md, 023-node-floor.md). The build runs on a copy
// of its inputs in a folder of its own, so build/ (which the other system tests serve) is untouched.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, suiteTempDir } from "./setup";

/** What `react-router build` reads: the sources, the configs and the database template's script. */
const INPUTS = [
  "app",
  "server",
  "public",
  "db",
  "supabase",
  "scripts/db-template.js",
  "package.json",
  "tsconfig.json",
  "vite.config.ts",
  "react-router.config.ts",
];
/** Vite's list of written files ("build/client/assets/x.js  12.3 kB │ gzip: 4.5 kB") says nothing. */
const ASSET_LINE = /^\s*build\/\S+\s+[\d.,]+ kB/;

describe("the production build", () => {
  const dir = suiteTempDir("build-output");

  it("prints no warning, its server entry is the app's process (server/index.ts) with the database template, and no page's JS carries the catalogue's seed", () => {
    for (const input of INPUTS) fs.cpSync(path.join(ROOT, input), path.join(dir, input), { recursive: true });
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
    const built = spawnSync(process.execPath, ["node_modules/@react-router/dev/bin.cjs", "build"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NODE_ENV: "production", FORCE_COLOR: "0", NO_COLOR: "1" },
      timeout: 300_000,
    });
    const output = `${built.stdout}\n${built.stderr}`;
    expect(built.status, output).toBe(0);
    const said = output.split("\n").filter((line) => line.trim() && !ASSET_LINE.test(line));
    expect(said.filter((line) => /warn|deprecat|future flag|⚠|\[[A-Z_]+\]/i.test(line))).toEqual([]);

    const entry = fs.readFileSync(path.join(dir, "build/server/index.js"), "utf8");
    expect(entry).toMatch(/load-env/);
    expect(fs.existsSync(path.join(dir, "build/server/pgdata-template/PG_VERSION"))).toBe(true);

    // The catalogue's seed is the server's and the tests' (the database holds the catalogue): no page's JS carries it.
    const assets = path.join(dir, "build/client/assets");
    const carrying = fs
      .readdirSync(assets)
      .filter((f) => f.endsWith(".js") && fs.readFileSync(path.join(assets, f), "utf8").includes("Pirate Frequency"));
    expect(carrying).toEqual([]);
  }, 360_000);
});
