// The production build the system tests run (`node build/server/index.js`): vitest's
// global setup of the "system" project (vitest.config.ts) builds once per run, before
// any of its files, when build/ is missing or older than the sources. `npm test` builds
// first, so there it finds the build fresh; `npx vitest run tests/system/x.test.ts`
// builds when it must, and a run of tests/unit or tests/contract alone never does.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isProcessAlive } from "./process";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SERVER_BUILD = path.join(ROOT, "build/server/index.js");
const SOURCES = [
  "app",
  "server",
  "db",
  "supabase",
  "public",
  "package.json",
  "vite.config.ts",
  "react-router.config.ts",
  "scripts/db-template.js",
];

function newestMtime(p: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

const buildIsFresh = () => {
  if (!fs.existsSync(SERVER_BUILD)) return false;
  const built = fs.statSync(SERVER_BUILD).mtimeMs;
  return SOURCES.every((s) => newestMtime(path.join(ROOT, s)) <= built);
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Builds the app (react-router build, NODE_ENV=production) unless build/ is newer than
 * every source. Two test runs on one checkout may start together: a lock directory
 * makes one build and the other wait for it (taken over when its owner died).
 */
export async function ensureBuild(): Promise<void> {
  const lock = path.join(os.tmpdir(), `mixtape-system-build-${Buffer.from(ROOT).toString("base64url").slice(-24)}.lock`);
  for (let i = 0; i < 600; i++) {
    if (buildIsFresh()) return;
    try {
      fs.mkdirSync(lock);
    } catch {
      // Someone else builds; take the lock over only when its owner died.
      let owner = 0;
      try {
        owner = Number.parseInt(fs.readFileSync(path.join(lock, "pid"), "utf8").trim() || "0", 10);
      } catch {
        // its owner has not written its pid yet, or just removed the lock
      }
      if (owner > 0 && !isProcessAlive(owner)) fs.rmSync(lock, { recursive: true, force: true });
      else await sleep(500);
      continue;
    }
    try {
      fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
      if (buildIsFresh()) return;
      console.log("system tests: build/ is older than the sources, building (react-router build)...");
      const result = spawnSync(process.execPath, [path.join(ROOT, "node_modules/@react-router/dev/bin.cjs"), "build"], {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "production" },
        encoding: "utf8",
        timeout: 240_000,
      });
      if (result.status !== 0) throw new Error(`react-router build failed:\n${result.stdout}\n${result.stderr}`);
      return;
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  throw new Error("timed out waiting for another run's build");
}

/** vitest's globalSetup (vitest.config.ts, project "system"). */
export default async function setup(): Promise<void> {
  await ensureBuild();
}
