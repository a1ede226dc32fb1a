// The report's sections on what a browser loads: transfer sizes and Lighthouse.
import { CFG } from "../lib/config.js";
import { f0, kb } from "./format.js";
import { lighthouseRetries } from "../scenarios/lighthouse.js";

/** What a first visit loads, per page. */
export function sizesSection(r, p) {
  p("## Client transfer sizes");
  p();
  p(
    `From the React Router build manifest (\`build/client/${r.sizes.manifestFile}\`; Vite's own manifest is not written by this build):`,
  );
  p("a first visit loads the entry module and its imports, then the module, imports and CSS of each matched route");
  p("(`/` = root + routes/home + routes/home/index; `/auth` = root + routes/auth), cross-checked against the");
  p("modulepreload/stylesheet links and module imports in the served HTML (the route manifest is inlined in the HTML,");
  p("so `manifest-*.js` is not fetched on a first visit and is not counted).");
  p("Each file compressed on its own: gzip level 9, brotli quality 11. 1 kB = 1000 bytes.");
  p();
  p("| asset | files | raw kB | gzip kB | brotli kB |");
  p("|---|---:|---:|---:|---:|");
  for (const [page, s] of Object.entries(r.sizes.pages)) {
    p(`| JS for \`${page}\` | ${s.js.files.length} | ${kb(s.js.raw)} | ${kb(s.js.gzip)} | ${kb(s.js.brotli)} |`);
    p(`| CSS for \`${page}\` | ${s.css.files.length} | ${kb(s.css.raw)} | ${kb(s.css.gzip)} | ${kb(s.css.brotli)} |`);
  }
  const h = r.sizes.pages["/"].html;
  p(`| HTML of \`/\` (signed in, full deck) | 1 | ${kb(h.raw)} | ${kb(h.gzip)} | ${kb(h.brotli)} |`);
  const ha = r.sizes.pages["/auth"].html;
  p(`| HTML of \`/auth\` | 1 | ${kb(ha.raw)} | ${kb(ha.gzip)} | ${kb(ha.brotli)} |`);
  const bj = r.sizes.baselineJs;
  p(
    `| reference: JS of the stock baseline app (React 19 + React Router, no app code) | ${bj.files.length} | ${kb(bj.raw)} | ${kb(bj.gzip)} | ${kb(bj.brotli)} |`,
  );
  p();
  const sv = r.sizes.servedHome;
  p(
    `HTML of \`/\` as the server actually sends it (its compression middleware): ${kb(sv.gzip.bytes)} kB with \`Accept-Encoding: gzip\``,
  );
  p(
    `(${sv.gzip.encoding}), ${kb(sv.br.bytes)} kB with \`br\` (${sv.br.encoding}), against ${kb(h.gzip)} / ${kb(h.brotli)} kB for the same bytes compressed in one piece.`,
  );
  p();
  p("<details><summary>JS files of <code>/</code> (gzip kB)</summary>");
  p();
  for (const f of [...r.sizes.pages["/"].js.files].sort((a, b) => b.gzip - a.gzip))
    p(`- \`${f.file}\`: ${kb(f.raw)} raw, ${kb(f.gzip)} gzip, ${kb(f.brotli)} brotli`);
  p();
  p("</details>");
  for (const [page, s] of Object.entries(r.sizes.pages)) {
    if (s.onlyInHtml.length)
      p(`Note: the HTML of \`${page}\` also loads ${s.onlyInHtml.map((f) => `\`${f}\``).join(", ")} (counted).`);
    if (s.notInHtml.length)
      p(
        `Note: the manifest walk for \`${page}\` includes ${s.notInHtml.map((f) => `\`${f}\``).join(", ")}, which its HTML does not preload (counted).`,
      );
  }
  p();
}

/** Lighthouse on each page. */
export function lighthouseSection(r, p) {
  p("## Lighthouse");
  p();
  if (r.lighthouse) {
    p(
      `Lighthouse ${r.lighthouseVersion} (npm), Debian Chromium headless, default config = mobile preset (simulated slow 4G, 4× CPU slowdown),`,
    );
    p(
      `categories performance, accessibility, best practices; median of ${CFG.lighthouseRuns} runs${lighthouseRetries ? ` (${lighthouseRetries} failed recording(s) repeated)` : ""}. \`/\` and the review dialog`,
    );
    p(
      "(`/review`) are signed in with the full-deck shopper's cookies, `/my-mixtapes` with the 50-order shopper's, sent through Lighthouse's `extraHeaders`.",
    );
    p(
      "The stock React Router page runs first, in the same Chromium: its score and TBT are the floor of the performance and TBT budgets (Lighthouse's CPU slowdown multiplies this machine's own speed).",
    );
    p();
    p("| page | performance | accessibility | best practices | LCP s | FCP s | TBT ms | CLS | runs (perf / LCP s) |");
    p("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    const pages = Object.entries({
      ...(r.lighthouseStock ? { "stock page (the floor)": r.lighthouseStock } : {}),
      ...r.lighthouse,
    });
    for (const [page, x] of pages) {
      const runs = x.runs.map((y) => `${y.performance} / ${(y.lcpMs / 1000).toFixed(2)}`).join("; ");
      p(
        `| \`${page}\` | ${x.performance} | ${x.accessibility} | ${x.bestPractices} | ${(x.lcpMs / 1000).toFixed(2)} | ${(x.fcpMs / 1000).toFixed(2)} | ${f0(x.tbtMs)} | ${x.cls.toFixed(3)} | ${runs} |`,
      );
    }
    p();
    for (const [page, x] of Object.entries(r.lighthouse)) {
      if (x.failing.length) p(`Audits below 1 on \`${page}\` (any run): ${x.failing.map((a) => `\`${a}\``).join(", ")}.`);
      p();
    }
  } else {
    p("Skipped (BENCH_SKIP_LIGHTHOUSE=1).");
    p();
  }
}
