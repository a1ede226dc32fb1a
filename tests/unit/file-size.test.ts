// No code file over 400 lines (docs/architecture.md, "One home per rule"): a file that grows past it
// holds more than one concern, and is split by concern before it lands.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MAX_LINES = 400;

it(`every code file the repository holds has at most ${MAX_LINES} lines`, () => {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "*.ts", "*.tsx", "*.js", "*.cjs"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => file && !file.startsWith("public/") && fs.existsSync(path.join(ROOT, file)));
  expect(files.length).toBeGreaterThan(100);
  const long = files
    .map((file) => ({ file, lines: fs.readFileSync(path.join(ROOT, file), "utf8").split("\n").length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES);
  expect(long).toEqual([]);
});
