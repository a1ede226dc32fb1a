// The report's sections on shoppers and the shop: interaction delay and layout shift, the
// shopper mix's capacity, payment webhooks.
import { CPU_SLOWDOWN } from "../scenarios/interactions.js";
import { ACCEPT_ENCODING } from "../lib/index.js";
import { CFG, BUDGETS } from "../lib/config.js";
import { f0, f1, f2, pf } from "./format.js";

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

/** Capacity for a mix of shoppers, in both flavours. */
export function mixSection(r, p) {
  p("## Capacity for a mix of shoppers");
  p();
  p(
    "Shoppers with JavaScript and without it cost the server differently (a fetcher's data, or a whole page per edit), so each flavour has its own row: the shop must carry its busiest hour whichever browsers come.",
  );
  p();
  p("Virtual shoppers arrive in an open loop, each doing what a shopper does: open `/`, add 3 songs, choose a design,");
  p("set an option and a note, open the review, generate a code, transmit, open My Mixtapes and the order's page;");
  p("1 in 10 also logs out and in (scrypt). Each flavour sends what Chromium sends for that visit on this build, with");
  p(`and without JavaScript (captured once with Playwright), \`Accept-Encoding: ${ACCEPT_ENCODING}\` on every request and`);
  p("an `Origin` header on every POST, as a browser does; static assets are left out (a browser caches them).");
  p("Each rate runs on the same server, a fresh one per flavour, with 60 shoppers signed up and warmed beforehand:");
  p(
    `${r.mixes[0]?.warmupS ?? CFG.warmupS} s at the rate to warm up, then ${r.mixes[0]?.durationS ?? CFG.durationS} s measured. **Achieved** is the requests answered within the measured`,
  );
  p("seconds, per second: a server that falls behind answers fewer than were asked, and the rest queue past the window.");
  p(
    `A rate passes when at least ${Math.round(BUDGETS.achievedShare * 100)} % of it was achieved, every request's p99 (from its own send) is at most ${BUDGETS.mixP99Ms} ms, nothing failed`,
  );
  p("and every order was stored once (checked afterwards). The rates rise until the p99 passes three times its budget.");
  p(
    `The rates asked are shares of the stock page's req/s in this run (${f0(r.mixes[0]?.stockRps)}): the budget is ${BUDGETS.mixShare}× it, whatever the machine.`,
  );
  p();
  for (const mix of r.mixes) {
    p(`### ${mix.name}: ${mix.what}`);
    p();
    p(
      mix.flavour === "js"
        ? "A fetcher POSTs the deck's edits to `/_.data` (with `_fetch=1`, as the hydrated form adds) and React Router revalidates with `GET /_root.data`; Review Order, generate and transmit are form navigations: `POST /review.data` answered 202 with the redirect, then the `.data` of where it points; My Mixtapes and the order page are client-side loads of their `.data`; logout and login the same way. Only the first `/` is a page render."
        : "Every edit is a form POST answered by a 303, then a GET of the whole page it points to (Review Order posts the options form to `/review`); logout and login the same way.",
    );
    p(`A visit is ${mix.requestsPerVisit} requests on average; the visits arrive at the rate asked ÷ ${mix.requestsPerVisit}.`);
    p();
    p(
      "| asked req/s | × the stock page | achieved req/s | achieved ÷ asked | shoppers/min | p50 ms | p99 ms | max ms | errors | lost | load avg | result |",
    );
    p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const x of mix.rows)
      p(
        `| ${x.targetRps} | ${f2(x.targetRps / mix.stockRps)} | ${f0(x.rps)} | ${(x.ratio * 100).toFixed(1)} % | ${f0(x.shoppersPerMin)} | ${f1(x.p50)} | ${f1(x.p99)} | ${f0(x.max)} | ${x.errors} | ${x.lost} | ${f1(x.load1)} | ${pf(x.ok)} |`,
      );
    const sample = mix.rows.find((x) => x.errorSample)?.errorSample;
    if (sample) {
      p();
      p(`First error: \`${sample}\`.`);
    }
    p();
  }
}

/** Payment webhooks at their budgeted rate: payments alone, then the ledger with refunds. */
export function webhooksSection(r, p) {
  p("## Payment webhooks");
  p();
  p(
    "A checkout provider sends payments and refunds in bursts and retries what was slow: the ledger must record each event exactly once, in time, whichever comes first. The payments row is the burst; the ledger row adds refunds naming payments just recorded, which take the same per-payment lock.",
  );
  p();
  const first = r.webhooks[0];
  p(
    `Signed Standard Webhooks events to \`POST /webhooks/checkout\` at ${first.asked}/s (${BUDGETS.webhooksShare}× the stock page's ${f0(first.stockRps)} req/s in this run) in an open loop for ${first.warmupS} + ${first.durationS} s, each row on a fresh server`,
  );
  p("with an order for every payment. A fifth of the events are replays of earlier ones (the same event id). In the");
  p(
    `ledger row a further ${Math.round(BUDGETS.webhooksRefundShare * 100)} % are partial refunds ($1.00) of orders whose payment was already answered, each naming its payment.`,
  );
  p("Afterwards the stopped server's database is read with the ledger's own rule (`order_money`): each order paid");
  p("once, each refunded order refunded once, one event row per event id. The first seconds warm the fresh server:");
  p("their events count for exactly once, their latency is shown apart. **Achieved**: the events of the measured");
  p("seconds answered 200, per second of the time they took; latency counts from each event's scheduled send.");
  p();
  p(
    "| events | asked /s | achieved /s | achieved ÷ asked | payments | refunds | replays | p50 ms | p99 ms | worst while warming up ms | errors | orders paid | orders refunded | event rows | exactly once |",
  );
  p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const wh of r.webhooks)
    p(
      `| ${wh.refunds ? "payments and refunds (the ledger)" : "payments"} | ${wh.asked} | ${f1(wh.rate)} | ${((wh.rate / wh.asked) * 100).toFixed(1)} % | ${wh.payments} | ${wh.refunds} | ${wh.events - wh.distinct} | ${f1(wh.p50)} | ${f1(wh.p99)} | ${f0(wh.warmupWorst)} | ${wh.errors} | ${wh.paid} | ${wh.refunded} | ${wh.eventRows} | ${wh.exactlyOnce ? "yes" : "**no**"} |`,
    );
  p();
}
