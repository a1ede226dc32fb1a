// Throughput of each page against the baseline, interleaved round by round.
import { cannonGet, median } from "../lib/index.js";
import { CFG, log } from "../lib/config.js";
import { f0, f1, f2 } from "../report/format.js";

/**
 * For each round and each target: a baseline run, then the app's run. A target's ratio is
 * the median over the rounds of app req/s ÷ the req/s of the baseline run just before it,
 * so machine noise hits both sides alike.
 */
export async function interleaved(targets, baseline, sampler, baseSampler) {
  const common = { connections: CFG.connections, warmupS: CFG.ratioWarmupS, durationS: CFG.ratioDurationS };
  const runs = Object.fromEntries(targets.map((t) => [t.key, []]));
  const baseRuns = [];
  for (let round = 1; round <= CFG.rounds; round++) {
    for (const t of targets) {
      baseSampler.start("baseline");
      const b = await cannonGet({ ...common, base: baseline.base, path: "/", cookie: baseline.jar.header() });
      baseSampler.stop();
      sampler.start(t.label);
      const a = await cannonGet({ ...common, base: t.base, path: t.path, cookie: t.cookie });
      sampler.stop();
      baseRuns.push(b);
      runs[t.key].push({ ...a, ratio: a.rps / b.rps, baselineRps: b.rps });
      log(
        `round ${round} ${t.label}: ${f0(a.rps)} vs baseline ${f0(b.rps)} req/s (${f2(a.rps / b.rps)}×), p99 ${f1(a.p99)} ms, errors ${a.errors}, load ${f1(a.load1)}`,
      );
    }
  }
  const summary = (list) => ({
    rps: median(list.map((x) => x.rps)),
    p50: median(list.map((x) => x.p50)),
    p99: median(list.map((x) => x.p99)),
    errors: list.reduce((n, x) => n + x.errors, 0),
    requests: list.reduce((n, x) => n + x.requests, 0),
    load1: median(list.map((x) => x.load1)),
    ratio: list[0]?.ratio === undefined ? undefined : median(list.map((x) => x.ratio)),
    ratios: list.map((x) => x.ratio),
    runs: list.length,
  });
  const out = { baseline: summary(baseRuns) };
  for (const t of targets) out[t.key] = summary(runs[t.key]);
  return out;
}
