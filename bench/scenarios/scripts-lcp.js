#!/usr/bin/env node
// The one deviation from React Router's defaults left: deferred module scripts
// (app/components/deferred-scripts.tsx) against the standard <Scripts/> (DEFER_SCRIPTS=0), side by
// side in one run. Lighthouse with the default simulated throttling (what the Lighthouse budget
// reads) and with applied "devtools" throttling (slow 4G, CPU 4x), on /auth and on a storefront
// with 5 tracks, interleaved. `npm run bench` runs it; alone: node bench/run.js scripts-lcp [RUNS=3].
import { pathToFileURL } from "node:url";
import { CHROMIUM_ARGS } from "../../tests/support/chromium.js";
import { deckIntent, freePort, median, mkTemp, newAgent, signUpShopper, startApp, stopChild } from "../lib/index.js";

export const SCRIPT_VARIANTS = [
  { name: "deferred (DEFER_SCRIPTS=1, the default)", env: { DEFER_SCRIPTS: "1" } },
  { name: "standard <Scripts/> (DEFER_SCRIPTS=0)", env: { DEFER_SCRIPTS: "0" } },
];

/** Median LCP, TBT, time to interactive and score per page, variant and throttling method. */
export async function compareScripts(runs = 3) {
  const variants = SCRIPT_VARIANTS.map((v) => ({ ...v }));
  const agent = newAgent(4);
  const results = {};
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  let chrome;
  try {
    for (const v of variants) {
      v.dataDir = await mkTemp("scripts-lcp");
      Object.assign(v, await startApp({ dataDir: v.dataDir, port: await freePort(), env: { ...v.env, LOG_LEVEL: "warn" } }));
      const shopper = await signUpShopper(v.base, v.dataDir, "lcp", agent);
      for (const songId of ["1", "5", "9", "13", "17"]) await deckIntent(v.base, shopper, { intent: "add", songId }, agent);
      v.cookie = shopper.jar.header(["mixtape-auth", "mixtape-deck"]);
    }
    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
      logLevel: "silent",
    });
    for (let i = 0; i < runs; i++) {
      for (const throttlingMethod of ["simulate", "devtools"]) {
        for (const page of ["/auth", "/"]) {
          for (const v of i % 2 ? [...variants].reverse() : variants) {
            const { lhr } = await lighthouse(`${v.base}${page}`, {
              port: chrome.port,
              output: "json",
              logLevel: "error",
              onlyCategories: ["performance"],
              throttlingMethod,
              ...(page === "/" ? { extraHeaders: { Cookie: v.cookie } } : {}),
            });
            if (new URL(lhr.finalDisplayedUrl).pathname !== page)
              throw new Error(`Lighthouse on ${page} ended on ${lhr.finalDisplayedUrl} (signed out?)`);
            (results[`${page}|${v.name}|${throttlingMethod}`] ??= []).push({
              lcp: lhr.audits["largest-contentful-paint"].numericValue,
              tbt: lhr.audits["total-blocking-time"].numericValue,
              tti: lhr.audits.interactive.numericValue,
              score: Math.round(lhr.categories.performance.score * 100),
            });
          }
        }
      }
    }
  } finally {
    await chrome?.kill();
    for (const v of variants) if (v.child) await stopChild(v.child);
    agent.destroy();
  }
  return Object.entries(results).map(([key, list]) => {
    const [page, variant, throttling] = key.split("|");
    const m = (k) => median(list.map((r) => r[k]));
    return { page, variant, throttling, runs: list.length, lcpMs: m("lcp"), tbtMs: m("tbt"), ttiMs: m("tti"), score: m("score") };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await compareScripts(Number(process.argv[2] ?? 3));
  for (const r of rows)
    console.log(
      `${r.page} · ${r.variant} · ${r.throttling}: LCP ${Math.round(r.lcpMs)} ms, TBT ${Math.round(r.tbtMs)} ms, interactive ${Math.round(r.ttiMs)} ms, score ${r.score}`,
    );
  process.exit(0);
}
