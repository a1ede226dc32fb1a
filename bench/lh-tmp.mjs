// quick TBT probe: node bench/lh-tmp.mjs [runs]
import { startApp, signUpShopper, deckIntent, newAgent, freePort, stopChild, placeOrder } from "./lib.js";
import fs from "node:fs";
const runs = Number(process.argv[2] ?? 3);
const dataDir = fs.mkdtempSync("/tmp/lh-data-");
const app = await startApp({ dataDir, port: await freePort() });
const agent = newAgent(4);
const s = await signUpShopper(app.base, dataDir, "lh", agent);
for (let id = 1; id <= 10; id++) await deckIntent(app.base, s, { intent: "add", songId: String(id) }, agent);
const cookie = s.jar.header(["mixtape-auth", "mixtape-deck"]);
const o = await signUpShopper(app.base, dataDir, "lho", agent);
if ((process.env.PAGES ?? "").includes("my-mixtapes")) for (let i = 0; i < 50; i++) await placeOrder(app.base, o, (i % 30) + 1, agent);
const ocookie = o.jar.header(["mixtape-auth", "mixtape-deck"]);
const { default: lighthouse } = await import("lighthouse");
const chromeLauncher = await import("chrome-launcher");
const chrome = await chromeLauncher.launch({ chromePath: "/usr/bin/chromium", chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"], logLevel: "silent" });
const pages = (process.env.PAGES ?? "/").split(",");
for (const p of pages) {
  const tbts = [];
  for (let i = 0; i < runs; i++) {
    const { lhr } = await lighthouse(`${app.base}${p}`, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"], extraHeaders: { Cookie: p.includes("my-mixtapes") ? ocookie : cookie } });
    const lt = lhr.audits["long-tasks"]?.details?.items?.map((t) => Math.round(t.duration)) ?? [];
    tbts.push(Math.round(lhr.audits["total-blocking-time"].numericValue));
    console.log(p, "perf", Math.round(lhr.categories.performance.score * 100), "TBT", tbts.at(-1), "LCP", Math.round(lhr.audits["largest-contentful-paint"].numericValue), "long tasks", lt.join(","));
    if (i === 0) fs.writeFileSync(`/tmp/lh/${p.replace(/\W/g, "_")}.json`, JSON.stringify(lhr));
  }
  console.log(p, "TBT median", tbts.sort((a, b) => a - b)[Math.floor(tbts.length / 2)]);
}
await chrome.kill();
agent.destroy();
await stopChild(app.child);
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
