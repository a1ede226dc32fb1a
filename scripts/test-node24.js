// `npm run test:node24`: the unit, contract and system tests (vitest) and the end-to-end tests
// without JavaScript (Playwright's js-off project) again, on Node 24, the active LTS
// (docs/decisions/009-node-lines.md). Node 24 comes from the npm registry: the package
// node-<platform>-<arch>@24 (a Node binary inside an npm package), installed once into
// node_modules/.cache/node24, or NODE24=<path to a node binary>. Run after `npm test`, whose build
// it reuses (it builds when there is none). Ends with "tests (Node 24.x.y): N passed, N failed";
// exit code 1 when anything failed. Why js-off: docs/testing.md.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { testChromiumPath } from "../tests/support/chromium.js";
import { playwrightCounts, vitestCounts } from "./test-counts.js";

const MAJOR = "24";
const PACKAGE = `node-${process.platform}-${process.arch}`;
const PREFIX = path.resolve("node_modules/.cache/node24");
const node = process.env.NODE24 ? path.resolve(process.env.NODE24) : path.join(PREFIX, "node_modules", PACKAGE, "bin", "node");

const fail = (message) => {
  console.error(message);
  console.log("\ntests (Node 24): 0 passed, 1 failed");
  process.exit(1);
};

if (!fs.existsSync(node)) {
  console.log(`Installing Node ${MAJOR} from the npm registry (${PACKAGE}@${MAJOR}) into ${PREFIX}...`);
  fs.mkdirSync(PREFIX, { recursive: true });
  const install = spawnSync(
    "npm",
    ["install", "--prefix", PREFIX, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", `${PACKAGE}@${MAJOR}`],
    { stdio: "inherit" },
  );
  if (install.status !== 0 || !fs.existsSync(node))
    fail(`Could not install ${PACKAGE}@${MAJOR}: Node 24 is needed for this leg.`);
}

const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout?.trim() ?? "";
if (!version.startsWith(`v${MAJOR}.`)) fail(`${node} is ${version || "not runnable"}, not Node ${MAJOR}.`);
console.log(`Node 24 leg: ${node} (${version})`);

// Node 24 first on PATH: every child (vitest's workers, the servers the tests start, npm in the
// production-install test, Playwright's web server) runs on it too.
const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` };
const run = (args, extra = {}) => spawnSync(node, args, { stdio: "inherit", env: { ...env, ...extra } }).status ?? 1;

if (!fs.existsSync("build/server/index.js")) {
  if (run(["node_modules/@react-router/dev/bin.js", "build"], { NODE_ENV: "production" }) !== 0) fail("The build failed.");
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-test-node24-"));
const vitestJson = path.join(tmp, "vitest.json");
const playwrightJson = path.join(tmp, "playwright.json");
let passed = 0;
let failed = 0;

const unit = run([
  "node_modules/vitest/vitest.mjs",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestJson}`,
]);
const add = ({ passed: p, failed: f }) => ((passed += p), (failed += f));
add(vitestCounts(vitestJson, unit));

let e2e = 1;
if (testChromiumPath()) {
  e2e = run(["node_modules/@playwright/test/cli.js", "test", "--project=js-off", ...process.argv.slice(2)], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
  });
  add(playwrightCounts(playwrightJson, e2e));
} else {
  console.error("Chromium is needed for the end-to-end tests: run `npm test` first (it installs it) or set CHROMIUM_PATH.");
  failed += 1;
}
fs.rmSync(tmp, { recursive: true, force: true });

console.log(`\ntests (Node ${version.slice(1)}): ${passed} passed, ${failed} failed`);
process.exit(unit === 0 && e2e === 0 && failed === 0 ? 0 : 1);
