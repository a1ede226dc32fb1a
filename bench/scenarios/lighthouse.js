// Lighthouse on the app's pages, in one Chromium that cleanup() kills whatever happens.
import { CHROMIUM_ARGS } from "../../tests/support/chromium.js";
import fs from "node:fs";
import path from "node:path";
import { ROOT, median } from "../lib/index.js";
import { CFG, log } from "../lib/config.js";

let chrome = null;

/** A short reason for a failing audit: its value, or what its first items say. */
function auditDetail(a) {
  if (a.displayValue && a.details?.type !== "table") return a.displayValue;
  const items = a.details?.items ?? [];
  const text = items
    .slice(0, 3)
    .map((it) => {
      const where = it.sourceLocation?.url ?? it.url ?? it.source?.url;
      const what = it.description ?? it.issueType;
      return what
        ? `${what}${where ? ` [${where.replace(/^https?:\/\/[^/]+/, "")}]` : ""}`
        : (where ?? JSON.stringify(it).slice(0, 120));
    })
    .map((t) => String(t).replace(/\s+/g, " ").slice(0, 160))
    .join(" | ");
  return text || a.displayValue || String(a.score);
}

export let lighthouseRetries = 0;

export async function runLighthouse(pages, runs) {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
    logLevel: "silent",
  });
  const results = {};
  try {
    for (const page of pages) {
      const list = [];
      for (let i = 0; i < runs; i++) {
        const flags = {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility", "best-practices"],
          ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
        };
        // Default config: the mobile preset. A run that fails to record (NO_NAVSTART and the
        // like happen on a busy machine) is repeated, at most twice.
        let lhr;
        for (let attempt = 1; ; attempt++) {
          let problem;
          try {
            ({ lhr } = await lighthouse(page.url, flags));
            if (lhr.runtimeError) problem = `${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
          } catch (e) {
            problem = e instanceof Error ? e.message : String(e);
          }
          if (!problem) break;
          if (attempt >= 3) throw new Error(`Lighthouse on ${page.name} failed 3 times: ${problem}`);
          log(`lighthouse ${page.name} run ${i + 1} failed (${problem.slice(0, 120)}): trying again`);
          lighthouseRetries++;
        }
        if (lhr.finalDisplayedUrl && new URL(lhr.finalDisplayedUrl).pathname !== new URL(page.url).pathname) {
          throw new Error(`Lighthouse on ${page.name} ended on ${lhr.finalDisplayedUrl} (signed out?)`);
        }
        const score = (k) => Math.round((lhr.categories[k]?.score ?? NaN) * 100);
        const failing = [];
        for (const cat of ["performance", "accessibility", "best-practices"]) {
          for (const ref of lhr.categories[cat].auditRefs) {
            const a = lhr.audits[ref.id];
            if (ref.weight > 0 && a.score !== null && a.score < 1) failing.push(`${cat}: ${ref.id} (${auditDetail(a)})`);
          }
        }
        list.push({
          performance: score("performance"),
          accessibility: score("accessibility"),
          bestPractices: score("best-practices"),
          lcpMs: lhr.audits["largest-contentful-paint"].numericValue,
          fcpMs: lhr.audits["first-contentful-paint"].numericValue,
          tbtMs: lhr.audits["total-blocking-time"].numericValue,
          cls: lhr.audits["cumulative-layout-shift"].numericValue,
          formFactor: lhr.configSettings.formFactor,
          failing,
        });
        log(
          `lighthouse ${page.name} run ${i + 1}: perf ${list.at(-1).performance}, a11y ${list.at(-1).accessibility}, bp ${list.at(-1).bestPractices}, LCP ${Math.round(list.at(-1).lcpMs)} ms`,
        );
      }
      const med = (k) => median(list.map((r) => r[k]));
      results[page.name] = {
        runs: list,
        performance: med("performance"),
        accessibility: med("accessibility"),
        bestPractices: med("bestPractices"),
        lcpMs: med("lcpMs"),
        fcpMs: med("fcpMs"),
        tbtMs: med("tbtMs"),
        cls: med("cls"),
        failing: [...new Set(list.flatMap((r) => r.failing))],
        formFactor: list[0].formFactor,
      };
    }
  } finally {
    await chrome.kill();
    chrome = null;
  }
  return results;
}

/** Kills the Chromium that Lighthouse drives, if one is still up. */
export async function closeChrome() {
  if (chrome) {
    try {
      await chrome.kill();
    } catch {
      // already gone
    }
    chrome = null;
  }
}

/**
 * The run's Lighthouse pages (none with BENCH_SKIP_LIGHTHOUSE=1), the stock page's first: the floor
 * of the Lighthouse budgets, on this machine, in this run.
 */
export async function lighthousePages({ base, baseline, cookies, orderCode }) {
  if (CFG.skipLighthouse) return { lighthouse: null, lighthouseStock: null, lighthouseVersion: null };
  const lighthouseVersion = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/lighthouse/package.json"), "utf8")).version;
  const { "stock page": lighthouseStock, ...lighthouse } = await runLighthouse(
    [
      { name: "stock page", url: `${baseline.base}/`, cookie: baseline.jar.header() },
      { name: "/auth", url: `${base}/auth` },
      { name: "/", url: `${base}/`, cookie: cookies.deck },
      { name: "/my-mixtapes", url: `${base}/my-mixtapes`, cookie: cookies.orders },
      { name: "review dialog", url: `${base}/review`, cookie: cookies.deck },
      { name: "order page", url: `${base}/my-mixtapes/${orderCode}`, cookie: cookies.orders },
      { name: "/account", url: `${base}/account`, cookie: cookies.orders },
      { name: "/mixer", url: `${base}/mixer`, cookie: cookies.mixer },
      { name: "/mixer/insights", url: `${base}/mixer/insights`, cookie: cookies.mixer },
    ],
    CFG.lighthouseRuns,
  );
  return { lighthouse, lighthouseStock, lighthouseVersion };
}
