// The mixer's CSV export of every order.
import zlib from "node:zlib";
import { ACCEPT_ENCODING, median, request } from "../lib/index.js";
import { CFG } from "../lib/config.js";

/** GET /mixer/orders.csv of every order, CFG.csvRuns times: time to the last byte, rows, RSS. */
export async function csvExport(base, cookie, sampler) {
  const runs = [];
  for (let i = 0; i < CFG.csvRuns; i++) {
    sampler.start("CSV export");
    const res = await request(base, {
      path: "/mixer/orders.csv",
      headers: { cookie, "accept-encoding": ACCEPT_ENCODING },
      raw: true,
      timeout: 120_000,
    });
    sampler.stop();
    if (res.status !== 200) throw new Error(`GET /mixer/orders.csv answered ${res.status}`);
    const enc = res.headers["content-encoding"];
    const text = (
      enc === "br" ? zlib.brotliDecompressSync(res.body) : enc === "gzip" ? zlib.gunzipSync(res.body) : res.body
    ).toString("utf8");
    runs.push({ ms: res.ms, rows: text.trimEnd().split("\n").length - 1, bytes: res.body.length, rawBytes: text.length, enc });
  }
  return {
    ms: median(runs.map((r) => r.ms)),
    runsMs: runs.map((r) => r.ms),
    rows: runs[0].rows,
    bytes: runs[0].bytes,
    rawBytes: runs[0].rawBytes,
    encoding: runs[0].enc ?? "identity",
    peakRss: sampler.peaks["CSV export"],
  };
}
