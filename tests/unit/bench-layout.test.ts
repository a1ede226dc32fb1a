// bench/ is shaped like the app: one entry (bench/run.js), then scenarios/ (what is measured),
// report/ (the report's sections), lib/ (servers, HTTP, load, seeding, knobs and budgets) and
// baseline/ (the stock React Router page every page is compared with). Every module is reached
// from the entry, as one of its tools or imported by one, and every relative import names a file.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../bench/run.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BENCH = path.join(ROOT, "bench");

function modules(dir: string): string[] {
  return fs.readdirSync(path.join(BENCH, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return modules(rel);
    return e.name.endsWith(".js") ? [rel] : [];
  });
}
const MODULES = ["lib", "report", "scenarios"].flatMap(modules);
const importsOf = (file: string) =>
  [...fs.readFileSync(path.join(BENCH, file), "utf8").matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) =>
    path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1])),
  );

describe("bench/", () => {
  it("holds one entry and the app's shape at its top level", () => {
    const top = fs.readdirSync(BENCH).sort();
    expect(top).toEqual(["baseline", "lib", "report", "run.js", "scenarios"]);
  });

  it("every relative import of a bench module names a file that exists", () => {
    const missing = ["run.js", ...MODULES].flatMap((file) =>
      importsOf(file)
        .filter((target) => !fs.existsSync(path.join(BENCH, target)))
        .map((target) => `${file} → ${target}`),
    );
    expect(missing).toEqual([]);
  });

  it("every module is a tool of the entry or imported by one that is reached", () => {
    const reached = new Set<string>(["scenarios/all.js", ...Object.values(TOOLS).map((t) => t.file)]);
    for (const file of reached) for (const target of importsOf(file)) if (!target.startsWith("../")) reached.add(target);
    expect(MODULES.filter((file) => !reached.has(file))).toEqual([]);
    expect(Object.values(TOOLS).filter((t) => !MODULES.includes(t.file))).toEqual([]);
  });

  it("the entry answers --help with every tool, and the whole run's modules link", async () => {
    const help = spawnSync(process.execPath, [path.join(BENCH, "run.js"), "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    for (const name of Object.keys(TOOLS)) expect(help.stdout).toContain(`  ${name} `);
    const { runAll } = await import("../../bench/scenarios/all.js");
    expect(typeof runAll).toBe("function");
  });
});
