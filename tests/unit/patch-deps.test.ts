// Upstream React Router fixes applied to the installed 7.x packages by scripts/patch-deps.js.
// These fail when the upstream code changes under a patch: then it no longer applies, or is no
// longer needed (React Router 8 ships both fixes).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const versionOf = (pkg: string) =>
  JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", pkg, "package.json"), "utf8")).version as string;

describe("the envFile patch (docs/decisions/010-envfile-warning.md)", () => {
  const DEV = path.join(ROOT, "node_modules/@react-router/dev");
  it("is still for React Router 7: 8 ships the fix, and the patch goes", () => {
    expect(versionOf("@react-router/dev")).toMatch(/^7\./);
  });
  it.each(["dist/cli/index.js", "dist/vite.js"])("%s passes Vite envDir: false, never the deprecated envFile", (file) => {
    const source = fs.readFileSync(path.join(DEV, file), "utf8");
    expect(source).not.toMatch(/^\s*envFile: false,$/m);
    expect(source).toMatch(/^\s*envDir: false,$/m);
  });
});

// 200 chunks streamed through the adapter's writeReadableStreamToWritable to a sink that takes
// each at once; before the last, a full GC, then how many of the earlier chunks are still alive.
const probe = (load: string) => `
${load}
const { Writable } = require("node:stream");
const N = 200, refs = [];
let alive = -1;
const body = new ReadableStream({
  async pull(controller) {
    if (refs.length === N) return controller.close();
    if (refs.length === N - 1) {
      await new Promise((resolve) => setImmediate(resolve));
      globalThis.gc();
      alive = refs.filter((ref) => ref.deref()).length;
    }
    const chunk = new Uint8Array(64 * 1024);
    refs.push(new WeakRef(chunk));
    controller.enqueue(chunk);
  },
}, { highWaterMark: 0 });
writeReadableStreamToWritable(body, new Writable({ write(_chunk, _encoding, done) { done(); } }))
  .then(() => console.log(JSON.stringify({ alive, earlier: N - 1 })));
`;
const LOADS = {
  "dist/index.js (require)": `const { writeReadableStreamToWritable } = require("@react-router/node");`,
  "dist/index.mjs (import)": `import { writeReadableStreamToWritable } from "@react-router/node"; import { createRequire } from "node:module"; const require = createRequire(import.meta.url);`,
};

describe("the response stream patch (docs/decisions/016-stream-race-leak.md)", () => {
  it("is still for React Router 7: 8 ships the fix (#15500), and the patch goes", () => {
    expect(versionOf("@react-router/node")).toMatch(/^7\./);
  });
  it.each(Object.entries(LOADS))("%s: a streamed body's written chunks are free to collect before it ends", (name, load) => {
    const type = name.includes("import") ? "module" : "commonjs";
    const run = spawnSync(process.execPath, ["--expose-gc", `--input-type=${type}`, "-e", probe(load)], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    const { alive, earlier } = JSON.parse(run.stdout.trim().split("\n").pop()!);
    expect(earlier).toBe(199);
    // Unpatched, all 199 are kept, each by its settled race with the writable's error promise.
    expect(alive).toBeLessThan(10);
  });
});

describe("the cookie key patch (docs/decisions/018-cookie-keys.md)", () => {
  it("react-router imports a signing secret's HMAC key once, not for every cookie it signs or verifies", async () => {
    const { createCookie } = await import("react-router");
    const subtle = globalThis.crypto.subtle;
    const importKey = subtle.importKey.bind(subtle);
    let imports = 0;
    const spy = vi.spyOn(subtle, "importKey").mockImplementation(((...args: Parameters<typeof importKey>) => {
      imports += 1;
      return importKey(...args);
    }) as typeof importKey);
    try {
      const cookie = createCookie(`patch-test-${Math.random()}`, { secrets: [`secret-${Math.random()}`] });
      for (let i = 0; i < 5; i++) expect(await cookie.parse(await cookie.serialize({ i }))).toEqual({ i });
      // Unpatched: 10 (each serialize and each parse imports the key again).
      expect(imports).toBe(2);
      expect(await cookie.parse(`${(await cookie.serialize({ i: 0 })).split(";")[0].slice(0, -3)}AAA`)).toBeNull();
    } finally {
      spy.mockRestore();
    }
  });
});
