// React Router's adapter sends every response body through @react-router/node's
// writeReadableStreamToWritable: a long download must not hold the chunks it has already sent
// (docs/decisions/016-stream-race-leak.md; 7.x held every one until the response ended).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

// 200 chunks streamed to a sink that takes each at once; before the last, a full GC, then how many
// of the earlier chunks are still alive.
const PROBE = `
import { writeReadableStreamToWritable } from "@react-router/node";
import { Writable } from "node:stream";
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
await writeReadableStreamToWritable(body, new Writable({ write(_chunk, _encoding, done) { done(); } }));
console.log(JSON.stringify({ alive, earlier: N - 1 }));
`;

it("a streamed body's written chunks are free to collect before it ends", () => {
  const run = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", PROBE], { cwd: ROOT, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  const { alive, earlier } = JSON.parse(run.stdout.trim().split("\n").pop()!);
  expect(earlier).toBe(199);
  // 7.18.4 kept all 199, each by its settled race with the writable's error promise.
  expect(alive).toBeLessThan(10);
});
