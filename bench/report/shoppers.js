// The report's sections on shoppers and the shop: interaction delay and layout shift, the
// shopper mix's capacity, payment webhooks.
import { CPU_SLOWDOWN } from "../interactions.js";
import { CFG, BUDGETS } from "../config.js";
import { f0, f1 } from "./format.js";

/** What a shopper on a slow phone feels. */
export function feelSection(r, p) {
  p("## What a shopper on a slow phone feels");
  p();
  p(
    `Chromium with the CPU slowed ${CPU_SLOWDOWN}× (DevTools' CPU throttling), a 390 px phone, JavaScript on, on a server of its own. Interaction delay:`,
  );
  p(
    'Event Timing entries (`PerformanceObserver`, `type: "event"`, `durationThreshold: 16`); a tap\'s delay is the longest entry of its',
  );
  p("interactionId, and a tap under 16 ms (no entry) counts as 16. Layout shift: the CLS while the page loads, then while");
  p("it is scrolled top to bottom by the wheel, half a screen at a time.");
  p();
  p("| tap | taps | p75 ms | worst ms |");
  p("|---|---:|---:|---:|");
  for (const x of r.feel.interactions) p(`| ${x.kind} | ${x.n} | ${f0(x.p75)} | ${f0(x.worst)} |`);
  p();
  p("| page | width | CLS loading | CLS scrolling |");
  p("|---|---:|---:|---:|");
  for (const x of r.feel.shifts) p(`| \`${x.page}\` | ${x.width} px | ${x.load.toFixed(4)} | ${x.scroll.toFixed(4)} |`);
  p();
  const moved = r.feel.shifts.filter((x) => x.sources?.length);
  if (moved.length) {
    p("What moved (element, then its box before and after as x,y,width,height, at ms after navigation):");
    p();
    for (const x of moved)
      for (const s of x.sources)
        p(`- \`${x.page}\` at ${x.width} px, ${s.value.toFixed(4)} at ${s.at} ms: ${s.nodes.join("; ")}`);
    p();
  }
}

/** Capacity for a mix of shoppers. */
export function mixSection(r, p) {
  p("## Capacity for a mix of shoppers");
  p();
  p("Virtual shoppers arrive in an open loop, each doing what a shopper without JavaScript does (every form a POST");
  p("answered by a redirect, then its page): open `/`, add 3 songs, choose a design, set an option and a note, open the");
  p("review, generate a code, transmit, open My Mixtapes and the order's page; 1 in 10 also logs out and in (scrypt).");
  p(`Each rate runs ${CFG.durationS} s; latency counts from each request's send; the orders are checked afterwards.`);
  p();
  p("| asked req/s | achieved req/s | shoppers/min | p50 ms | p99 ms | max ms | errors | lost | load avg |");
  p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const x of r.mix.rows)
    p(
      `| ${x.targetRps} | ${f0(x.rps)} | ${f0(x.shoppersPerMin)} | ${f1(x.p50)} | ${f1(x.p99)} | ${f0(x.max)} | ${x.errors} | ${x.lost} | ${f1(x.load1)} |`,
    );
  p();
}

/** Payment webhooks at their budgeted rate. */
export function webhooksSection(r, p) {
  p("## Payment webhooks");
  p();
  p(
    `Signed Standard Webhooks events to \`POST /webhooks/checkout\` at ${BUDGETS.webhooksPerS}/s in an open loop for ${CFG.durationS} s, one payment per order with`,
  );
  p("replays of earlier events mixed in; afterwards the stopped server's database is read. The server is fresh: the first");
  p(
    `${r.webhooks.warmupS} s of events (counted for exactly once) warm it up, and their latency is shown apart from the p50 and p99.`,
  );
  p();
  const wh = r.webhooks;
  p(
    "| events | distinct | events/s | p50 ms | p99 ms | worst while warming up ms | errors | orders paid | event rows | exactly once |",
  );
  p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  p(
    `| ${wh.events} | ${wh.distinct} | ${f0(wh.rate)} | ${f1(wh.p50)} | ${f1(wh.p99)} | ${f0(wh.warmupWorst)} | ${wh.errors} | ${wh.paid} | ${wh.eventRows} | ${wh.exactlyOnce ? "yes" : "**no**"} |`,
  );
  p();
}
