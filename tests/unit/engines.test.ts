// package.json's `engines` is true: every Node it admits is admitted by every package the
// lockfile installs there, so `npm ci` prints no EBADENGINE on it
// (docs/decisions/009-node-lines.md).
import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
type Locked = { engines?: { node?: string }; optional?: boolean; dev?: boolean; version?: string };
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, Locked>;
};
const ours: string = pkg.engines.node;

describe("engines", () => {
  it("names the supported lines: 20.19+, 22 and 24", () => {
    for (const version of ["20.19.0", "22.13.0", "24.0.0"]) expect(semver.satisfies(version, ours), version).toBe(true);
    for (const version of ["18.20.0", "20.18.0", "21.7.0", "23.0.0"])
      expect(semver.satisfies(version, ours), version).toBe(false);
  });

  it("admits the Node running these tests", () => {
    expect(semver.satisfies(process.versions.node, ours)).toBe(true);
  });

  it("is within every installed package's own engines (optional packages are skipped where they do not fit)", () => {
    const misfits = Object.entries(lock.packages)
      .filter(([name, meta]) => name && !meta.optional && meta.engines?.node)
      .filter(([, meta]) => !semver.subset(ours, meta.engines!.node!))
      .map(([name, meta]) => `${name.replace(/^.*node_modules\//, "")} wants ${meta.engines!.node}`);
    expect(misfits).toEqual([]);
  });

  it("lists @supabase/supabase-js at a version whose packages accept Node 20", () => {
    const supabase = Object.entries(lock.packages).filter(([name]) => /node_modules\/@supabase\/[^/]+$/.test(name));
    expect(supabase.length).toBeGreaterThan(0);
    for (const [name, meta] of supabase) expect(semver.subset(ours, meta.engines?.node ?? "*"), name).toBe(true);
  });
});
