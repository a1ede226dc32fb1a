// A production install starts: the build with package.json and the lockfile, in a folder of their
// own, `npm ci --omit=dev` (as a host or a container's runtime stage does), then
// `node build/server/index.js`. Every package the server imports must be a dependency: one left
// in devDependencies fails here with ERR_MODULE_NOT_FOUND. The install may use npm's cache
// (--prefer-offline), so it is quick where the project was installed before.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, fromTemplate, ROOT, spawnServer, suiteTempDir } from "./setup";

describe("a production install (npm ci --omit=dev) starts", () => {
  const dir = suiteTempDir("production-install");

  it("installs no devDependency, starts, and answers GET /auth and GET /readyz", async () => {
    fs.cpSync(path.join(ROOT, "build"), path.join(dir, "build"), { recursive: true });
    for (const file of ["package.json", "package-lock.json"]) fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));

    const npm = spawnSync("npm", ["ci", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NODE_ENV: "production" },
      timeout: 300_000,
    });
    const npmOutput = `${npm.stdout}\n${npm.stderr}`;
    expect(npm.status, npmOutput).toBe(0);
    expect(npmOutput).not.toMatch(/EBADENGINE/);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    for (const name of Object.keys(pkg.dependencies))
      expect(fs.existsSync(path.join(dir, "node_modules", name)), name).toBe(true);
    // The registry's `node` (the Node 24 the README's scripts run on) is a dev tool: a host runs its own Node.
    for (const name of ["vite", "@react-router/dev", "vitest", "eslint", "@playwright/test", "node"]) {
      expect(fs.existsSync(path.join(dir, "node_modules", name)), name).toBe(false);
    }
    // The server loads React Router's production build: its development build is only for the
    // `development` condition (7.x resolved it for every Node import, whatever NODE_ENV said).
    const resolved = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", "console.log(import.meta.resolve('react-router'))"],
      {
        cwd: dir,
        encoding: "utf8",
      },
    );
    expect(resolved.stdout.trim(), resolved.stderr).toMatch(/\/node_modules\/react-router\/dist\/production\/index\.js$/);

    const dataDir = path.join(dir, ".data");
    await fromTemplate(dataDir); // a migrated database: the first boot's initdb is tested elsewhere
    const port = await freePort();
    // The install's own build, with the tests' env but the default rate limits, as a host runs it.
    const server = spawnServer({ dataDir, port, root: dir, env: { RATE_LIMIT_FACTOR: undefined } });
    const { child, output } = server;
    const exited = server.exited.then((exit) => exit.code);
    try {
      const base = `http://127.0.0.1:${port}`;
      let ready: Response | null = null;
      for (let i = 0; i < 600 && child.exitCode === null; i++) {
        ready = await fetch(`${base}/readyz`).catch(() => null);
        if (ready?.status === 200) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(child.exitCode, output()).toBeNull();
      expect(ready?.status, output()).toBe(200);
      expect((await fetch(`${base}/auth`)).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited, output()).toBe(0);
  }, 360_000);
});
