// Throughput of three pages on servers that differ only in their environment, measured in
// alternating rounds so that the machine's load falls on each alike. Used by quick-pages.js
// (A/B of a change) and by run.js (a deviation's switch on and off).
import { cannonGet, deckIntent, freePort, mkTemp, newAgent, signUpShopper, startApp, stopChild } from "./lib.js";

export const PAGES = ["/auth", "/", "/my-mixtapes"];

/** variants: [{ name, env }]; returns one row per variant and page: req/s and p99 summed over rounds. */
export async function comparePages({ variants, seconds = 5, rounds = 2, connections = 10 }) {
  const agent = newAgent(4);
  const servers = [];
  for (const v of variants) {
    const dataDir = await mkTemp("pages-ab-");
    const app = await startApp({ dataDir, port: await freePort(), env: v.env });
    const shopper = await signUpShopper(app.base, dataDir, "ab", agent);
    for (let id = 1; id <= 10; id++) await deckIntent(app.base, shopper, { intent: "add", songId: String(id) }, agent);
    servers.push({ v, app, cookie: shopper.jar.header(["mixtape-auth", "mixtape-deck"]), runs: {} });
  }
  try {
    for (let round = 0; round < rounds; round++)
      for (const s of round % 2 ? [...servers].reverse() : servers)
        for (const page of PAGES) {
          const r = await cannonGet({
            base: s.app.base,
            path: page,
            cookie: page === "/auth" ? undefined : s.cookie,
            connections,
            warmupS: 1,
            durationS: seconds,
          });
          (s.runs[page] ??= []).push(r);
        }
  } finally {
    agent.destroy();
    for (const s of servers) await stopChild(s.app.child);
  }
  return servers.flatMap((s) =>
    PAGES.map((page) => {
      const runs = s.runs[page];
      const mean = (f) => runs.reduce((a, r) => a + f(r), 0) / runs.length;
      return {
        variant: s.v.name,
        page,
        startupMs: s.app.startupMs,
        rps: mean((r) => r.rps),
        p99: Math.max(...runs.map((r) => r.p99)),
        errors: runs.reduce((a, r) => a + r.errors, 0),
        kB: mean((r) => r.bytesPerReq) / 1024,
      };
    }),
  );
}
