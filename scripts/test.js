// `npm test`: the typecheck, lint and format check, a production build, unit, contract and system tests (vitest), then the
// end-to-end tests (Playwright, JS on and JS off) in Debian's Chromium.
// Ends with one line "tests: N passed, N failed".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { testChromiumPath } from "../tests/support/chromium.js";
import { playwrightCounts, vitestCounts } from "./test-counts.js";

const bin = (name) => path.resolve("node_modules/.bin", name);
const run = (cmd, args, env = {}) => spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1;

function ensureChromium() {
  if (testChromiumPath()) return true;
  if (process.getuid?.() === 0) {
    console.log("Chromium not found: installing Debian's chromium-headless-shell with apt-get...");
    run("apt-get", ["update"]);
    run("apt-get", ["install", "-y", "--no-install-recommends", "chromium-headless-shell"], {
      DEBIAN_FRONTEND: "noninteractive",
    });
    if (testChromiumPath()) return true;
  }
  console.error(
    "Chromium is needed for the end-to-end tests and was not found.\n" +
      "Install Debian's package:  sudo apt-get install -y chromium-headless-shell (or chromium)\n" +
      "or point CHROMIUM_PATH at a Chromium binary.",
  );
  return false;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-test-"));
const vitestJson = path.join(tmp, "vitest.json");
const SMOKE_SPECS = ["tests/e2e/auth.spec.ts", "tests/e2e/storefront.spec.ts", "tests/e2e/ordering.spec.ts"];
let passed = 0;
let failed = 0;

// Types first (route types are generated), then lint and format, then a fresh
// production build: the system and end-to-end tests run it.
const types = run(bin("react-router"), ["typegen"]) || run(bin("tsc"), []) || run("npm", ["run", "-s", "lint"]);
if (types !== 0) {
  console.log("\ntests: 0 passed, 1 failed");
  process.exit(1);
}
const build = run(bin("react-router"), ["build"], { NODE_ENV: "production" });
if (build !== 0) {
  console.log("\ntests: 0 passed, 1 failed");
  process.exit(1);
}

const unit = run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`]);
const add = ({ passed: p, failed: f }) => ((passed += p), (failed += f));
add(vitestCounts(vitestJson, unit));

/** One Playwright run; its counts join the total. */
function playwright(args, env = {}) {
  const report = path.join(tmp, `playwright-${Math.random().toString(36).slice(2)}.json`);
  const status = run(bin("playwright"), ["test", ...args], { PLAYWRIGHT_JSON_OUTPUT_NAME: report, ...env });
  add(playwrightCounts(report, status));
  return status;
}

let e2e = 1;
if (ensureChromium()) {
  e2e = playwright(process.argv.slice(2));
  // The deployer's switches off, all at once: the smoke specs (auth, home, review) with JavaScript
  // on a server that streams its pages and loads its scripts as React Router's template does, and
  // sends each database call in its own transaction (docs/decisions/002-deferred-scripts.md,
  // 006-whole-page-render.md, 017-one-trip.md).
  if (process.argv.length <= 2)
    e2e |= playwright(["--project=js-on", ...SMOKE_SPECS], { DEFER_SCRIPTS: "0", BUFFER_HTML: "0", BATCH_DB_CALLS: "0" });
} else failed += 1;

console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(unit === 0 && e2e === 0 && failed === 0 ? 0 : 1);
