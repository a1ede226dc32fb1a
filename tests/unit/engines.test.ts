// package.json's `engines` is true: every Node it admits is admitted by every package the
// lockfile installs there, so `npm ci` prints no EBADENGINE on it; and the Node the README's
// scripts run on (the registry's `node`, a devDependency) is one of them
// (docs/decisions/023-node-floor.md).
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
  it("names the supported lines: 22 from React Router 8's floor (22.22.0), and 24 on", () => {
    for (const version of ["22.22.0", "22.23.3", "24.0.0", "26.0.0"]) expect(semver.satisfies(version, ours), version).toBe(true);
    for (const version of ["20.19.0", "20.20.2", "22.21.1", "23.11.0"])
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

  it("runs the scripts on a Node 24 it admits: the registry's `node`, pinned, for development only", () => {
    const node: string = pkg.devDependencies.node;
    expect(node).toMatch(/^24\.\d+\.\d+$/);
    expect(semver.satisfies(node, ours)).toBe(true);
    expect(pkg.dependencies.node).toBeUndefined();
    expect(lock.packages["node_modules/node"]).toMatchObject({ version: node, dev: true });
  });
});
