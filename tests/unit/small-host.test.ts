// The small-host settings are one list (bench/lib/config.js, which the memory rows of the bench
// run with) and two manuals that tell a deployer (docs/deploy.md, .env.example): they say the
// same, and the node that runs the tests accepts the flag (a Node that dropped it would refuse to start).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SMALL_HOST_ENV, SMALL_HOST_NODE_ARGS } from "../../bench/lib/config.js";

const manuals = ["docs/deploy.md", ".env.example"].map((f) => [f, fs.readFileSync(f, "utf8")] as const);

describe("the small-host settings", () => {
  it.each(manuals)("%s gives every setting the bench measures", (_, text) => {
    for (const [name, value] of Object.entries(SMALL_HOST_ENV)) expect(text).toContain(`${name}=${value}`);
    for (const flag of SMALL_HOST_NODE_ARGS) expect(text).toContain(`node ${flag} build/server/index.js`);
  });

  it("node accepts the flags", () => {
    const run = spawnSync(process.execPath, [...SMALL_HOST_NODE_ARGS, "-e", "process.stdout.write('started')"], {
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("started");
  });
});
