// `npm run test:node22`: the unit, contract and system tests (vitest) again on Node 22, the oldest
// line `engines` admits (docs/decisions/023-node-floor.md); `npm test` runs everything on Node 24.
// Node 22 comes from the npm registry: the package node-<platform>-<arch>@22 (a Node binary inside
// an npm package), installed once into node_modules/.cache/node22, or NODE22=<path to a node
// binary>. Run after `npm test`, whose build it reuses (it builds when there is none). Ends with
// "tests (Node 22.x.y): N passed, N failed"; exit code 1 when anything failed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { vitestCounts } from "./test-counts.js";

const MAJOR = "22";
const PACKAGE = `node-${process.platform}-${process.arch}`;
const PREFIX = path.resolve(`node_modules/.cache/node${MAJOR}`);
const node = process.env.NODE22 ? path.resolve(process.env.NODE22) : path.join(PREFIX, "node_modules", PACKAGE, "bin", "node");

const fail = (message) => {
  console.error(message);
  console.log(`\ntests (Node ${MAJOR}): 0 passed, 1 failed`);
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
    fail(`Could not install ${PACKAGE}@${MAJOR}: Node ${MAJOR} is needed for this leg.`);
}

const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout?.trim() ?? "";
if (!version.startsWith(`v${MAJOR}.`)) fail(`${node} is ${version || "not runnable"}, not Node ${MAJOR}.`);
console.log(`Node ${MAJOR} leg: ${node} (${version})`);

// Node 22 first on PATH, before node_modules/.bin's Node 24: every child (vitest's workers, the
// servers the tests start, npm in the production-install test) runs on it too.
const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` };
const run = (args, extra = {}) => spawnSync(node, args, { stdio: "inherit", env: { ...env, ...extra } }).status ?? 1;

if (!fs.existsSync("build/server/index.js")) {
  if (run(["node_modules/@react-router/dev/bin.cjs", "build"], { NODE_ENV: "production" }) !== 0) fail("The build failed.");
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `mixtape-test-node${MAJOR}-`));
const vitestJson = path.join(tmp, "vitest.json");
const unit = run([
  "node_modules/vitest/vitest.mjs",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestJson}`,
  ...process.argv.slice(2),
]);
const { passed, failed } = vitestCounts(vitestJson, unit);
fs.rmSync(tmp, { recursive: true, force: true });

console.log(`\ntests (Node ${version.slice(1)}): ${passed} passed, ${failed} failed`);
process.exit(unit === 0 && failed === 0 ? 0 : 1);
