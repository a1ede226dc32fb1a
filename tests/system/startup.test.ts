// Start-up mistakes get a clear answer and exit code 1: never a hang, never a stack
// trace. Each case starts the production server (node build/server/index.js).
import fs from "node:fs";
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import path from "node:path";
import { freePort, spawnServer, startServer, testTempDir, type Exit } from "./setup";

/** Starts the server with this env; resolves with its exit and everything it printed. */
async function startExpectingExit(env: Record<string, string>, dataDir = testTempDir("startup")) {
  const { child, exited, output } = spawnServer({ dataDir, port: await freePort(), env });
  const exit = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 60_000))]);
  if (exit === null) child.kill("SIGKILL");
  return { exit: exit as Exit | null, output: output().trim() };
}

/** The answer: "Cannot start: ..." on stderr, nothing that looks like a stack or zod's JSON. */
function expectClearRefusal(result: { exit: Exit | null; output: string }, ...expected: (string | RegExp)[]) {
  expect(result.exit, "the server exits instead of hanging").not.toBeNull();
  expect(result.exit!.code).toBe(1);
  expect(result.output).toMatch(/^Cannot start: /m);
  for (const e of expected) expect(result.output).toMatch(e);
  expect(result.output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m); // a stack frame
  expect(result.output).not.toMatch(/"code":|"path":\s*\[/); // zod's raw issues
}

describe("start-up mistakes", () => {
  let blocker: net.Server;
  afterAll(() => blocker?.close());

  it("a port already in use: one line naming the port", async () => {
    blocker = net.createServer().listen(0, "127.0.0.1");
    await new Promise((r) => blocker.once("listening", r));
    const port = (blocker.address() as net.AddressInfo).port;
    const dataDir = testTempDir("startup");
    const { child, exited, output } = spawnServer({ dataDir, port, env: {} });
    const exit = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 60_000))]);
    if (!exit) child.kill("SIGKILL");
    expectClearRefusal({ exit, output: output() }, new RegExp(`Cannot start: port ${port} is already in use`));
  });

  it.each([
    ["/proc/nope", "cannot be created (ENOENT)"],
    ["/etc/hostname/data", "cannot be created (ENOTDIR)"],
    ["/sys/mixtape-data", /cannot be created \((EPERM|EACCES|EROFS)\)/],
  ])("DATA_DIR=%s: one line naming DATA_DIR and why", async (dir, why) => {
    expectClearRefusal(await startExpectingExit({ DATA_DIR: dir }, dir), /DATA_DIR: must be a writable directory/, why);
  });

  it("DATA_DIR unusable while SESSION_SECRET is set (no secret file to write): the same answer", async () => {
    const result = await startExpectingExit(
      { DATA_DIR: "/proc/nope", SESSION_SECRET: "a-secret-of-at-least-16-chars" },
      "/proc/nope",
    );
    expectClearRefusal(result, /DATA_DIR: must be a writable directory; \/proc\/nope cannot be created \(ENOENT\)/);
  });

  it("invalid configuration: each bad variable and what it needs, one line each", async () => {
    const result = await startExpectingExit({
      PORT: "eighty",
      SITE_URL: "shop.example.com",
      RATE_LIMIT_FACTOR: "-2",
      LOG_LEVEL: "loud",
    });
    expectClearRefusal(
      result,
      /^\s+PORT: must be a port number$/m,
      /^\s+SITE_URL: must be a URL such as https:\/\/shop\.example\.com$/m,
      /^\s+RATE_LIMIT_FACTOR: must be a positive number$/m,
      /^\s+LOG_LEVEL: must be one of fatal, error, warn, info, debug, silent$/m,
    );
  });

  it("NODE_ENV unset: the server still loads React's production build", async () => {
    // The entry sets NODE_ENV before any dependency loads; a preload lists which React
    // DOM server build the process required, as it exits.
    const dir = testTempDir("react-build");
    const probe = path.join(dir, "probe.cjs");
    const out = path.join(dir, "loaded.txt");
    fs.writeFileSync(
      probe,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, Object.keys(require.cache).filter((k) => /react-dom-server/.test(k)).join("\\n")));`,
    );
    const server = await startServer({
      dataDir: testTempDir("startup"),
      env: { NODE_ENV: undefined, NODE_OPTIONS: `--require=${probe}` },
    });
    expect((await fetch(`${server.url}/auth`)).status).toBe(200);
    await server.stop();
    const loaded = fs.readFileSync(out, "utf8");
    expect(loaded).toMatch(/react-dom-server\.node\.production\.js/);
    expect(loaded).not.toMatch(/development/);
  });
});
