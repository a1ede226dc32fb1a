// The report's sections on choices: React Router's defaults on and off, and the stress click test.
import { BATCH_AB } from "../lib/config.js";
import { f0, f1, f2 } from "./format.js";
import { STRESS_SPEC } from "../scenarios/stress.js";

/** Deviations from React Router's defaults, on and off. */
export function deviationsSection(r, p) {
  p("## Deviations from React Router's defaults, on and off");
  p();
  p(
    "Each deviation that remains has a switch and a record in `docs/decisions/`. Both settings run side by side in this run, interleaved, on `/auth` and on `/` with 5 tracks.",
  );
  p();
  if (r.deviations) {
    p("| deviation | setting | page | throttling | LCP ms | TBT ms | interactive ms | performance |");
    p("|---|---|---|---|---:|---:|---:|---:|");
    for (const x of r.deviations)
      p(
        `| deferred scripts ([002](decisions/002-deferred-scripts.md)) | ${x.variant} | \`${x.page}\` | ${x.throttling === "simulate" ? "simulated (Lighthouse's default)" : "applied (devtools: slow 4G, CPU 4×)"} | ${f0(x.lcpMs)} | ${f0(x.tbtMs)} | ${f0(x.ttiMs)} | ${x.score} |`,
      );
  } else p("Skipped (BENCH_SKIP_LIGHTHOUSE=1).");
  p();
  p(
    "The whole page rendered before it is sent ([006](decisions/006-whole-page-render.md)), against React Router's streamed template: two servers, 10 connections, two alternating rounds of 5 s per page (`/` and `/my-mixtapes` with 10 tracks):",
  );
  p();
  p("| setting | page | req/s | p99 ms | kB per answer | errors |");
  p("|---|---|---:|---:|---:|---:|");
  for (const x of r.rendering ?? [])
    p(`| ${x.variant} | \`${x.page}\` | ${f0(x.rps)} | ${f1(x.p99)} | ${f1(x.kB)} | ${x.errors} |`);
  p();
  p(
    `One RLS transaction per request ([017](decisions/017-one-trip.md)): the calls a request makes at once share one transaction; \`BATCH_DB_CALLS=0\` gives each call its own, as before. It is kept only if it pays, so it is measured on and off: two servers (the mixer and a shopper with ${BATCH_AB.orders} orders placed through the forms, then 10 tracks on the deck), ${BATCH_AB.connections} connections, ${BATCH_AB.rounds} alternating rounds of ${BATCH_AB.seconds} s per page:`,
  );
  p();
  p("| setting | page | req/s | p99 ms | kB per answer | errors | req/s on ÷ off |");
  p("|---|---|---:|---:|---:|---:|---:|");
  const off = new Map((r.batching ?? []).filter((x) => x.variant.includes("=0")).map((x) => [x.page, x]));
  for (const x of r.batching ?? []) {
    const other = off.get(x.page);
    const ratio = !x.variant.includes("=0") && other ? f2(x.rps / other.rps) : "";
    p(`| ${x.variant} | ${x.page} | ${f0(x.rps)} | ${f1(x.p99)} | ${f1(x.kB)} | ${x.errors} | ${ratio} |`);
  }
  p();
}

/** The stress click test. */
export function stressSection(r, p) {
  p("## No lost clicks");
  p();
  const st = r.stress;
  if (st.ran) {
    p(
      `\`playwright test ${STRESS_SPEC} --project=js-on\` (its own server, playwright.config.ts), run after the measurements: **${st.ok ? "passed" : "failed"}** (${st.summary}, ${f0(st.seconds)} s).`,
    );
    if (!st.ok) {
      p();
      p("```");
      p(st.tail.trim());
      p("```");
    }
  } else {
    p(`Not run: ${st.reason}.`);
  }
  p();
}
