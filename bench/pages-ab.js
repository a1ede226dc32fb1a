// Throughput of a few pages on servers that differ only in their environment, measured in
// alternating rounds so that the machine's load falls on each alike. Used by quick-pages.js
// (A/B of a change) and by run.js (a deviation's switch on and off).
import fs from "node:fs";
import { cannonGet, deckIntent, freePort, mkTemp, newAgent, readCpuMs, signUpShopper, startApp, stopChild } from "./lib.js";

export const PAGES = ["/auth", "/", "/my-mixtapes"];

/** The default pages: a shopper with 10 tracks on `/auth` (signed out), `/` and `/my-mixtapes`. */
async function deckShopperPages(app, dataDir, agent) {
  const shopper = await signUpShopper(app.base, dataDir, "ab", agent);
  for (let id = 1; id <= 10; id++) await deckIntent(app.base, shopper, { intent: "add", songId: String(id) }, agent);
  const cookie = shopper.jar.header(["mixtape-auth", "mixtape-deck"]);
  return PAGES.map((page) => ({ page, path: page, cookie: page === "/auth" ? undefined : cookie }));
}

/**
 * variants: [{ name, env, root?, node? }] (root and node: another checkout's build on another Node,
 * as startApp takes them); `prepare(app, dataDir, agent, restart)` seeds each server and answers its
 * pages ([{ page, path, cookie }]: `page` names the row, `path` may differ by server);
 * `restart(between)` stops the server, awaits `between()` (work on its stopped data dir) and starts
 * it again (the rounds measure the new one); its fifth argument is the variant. Returns
 * one row per variant and page: req/s (mean), p99 (the worst) and the server's CPU ms per request over the rounds.
 * The servers run twice, started in one order and then the other, each time for half the rounds:
 * on `/` the server started first was slower by about a sixth whatever its setting
 * (docs/decisions/017-one-trip.md), and the order must not pick the winner.
 */
export async function comparePages({ variants, seconds = 5, rounds = 2, connections = 10, prepare = deckShopperPages }) {
  const agent = newAgent(4);
  const runs = new Map(variants.map((v) => [v, {}]));
  const pagesOf = new Map();
  const startups = new Map(variants.map((v) => [v, []]));
  try {
    for (const [half, order] of [variants, [...variants].reverse()].entries()) {
      const halfRounds = Math.ceil(rounds / 2) - (half === 1 && rounds % 2 ? 1 : 0);
      if (halfRounds === 0) break;
      const servers = [];
      try {
        for (const v of order) {
          const dataDir = await mkTemp("pages-ab-");
          const start = async () => startApp({ dataDir, port: await freePort(), env: v.env, root: v.root, node: v.node });
          const server = { v, app: await start(), dataDir };
          servers.push(server);
          startups.get(v).push(server.app.startupMs);
          const restart = async (between) => {
            await stopChild(server.app.child);
            await between?.();
            return (server.app = await start());
          };
          server.pages = await prepare(server.app, dataDir, agent, restart, v);
          pagesOf.set(v, server.pages);
        }
        for (let round = 0; round < halfRounds; round++)
          for (const s of round % 2 ? [...servers].reverse() : servers)
            for (const { page, path, cookie } of s.pages) {
              // The server's CPU time per answer: on a shared machine its rate follows the neighbours' load, its CPU far less.
              let cpuFrom = 0;
              const onPhase = (phase) => phase === "measure" && (cpuFrom = readCpuMs(s.app.child.pid));
              const r = await cannonGet({ base: s.app.base, path, cookie, connections, warmupS: 1, durationS: seconds, onPhase });
              r.cpuMs = readCpuMs(s.app.child.pid) - cpuFrom;
              (runs.get(s.v)[page] ??= []).push(r);
            }
      } finally {
        for (const s of servers) {
          await stopChild(s.app.child);
          fs.rmSync(s.dataDir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    agent.destroy();
  }
  const servers = variants.map((v) => ({ v, runs: runs.get(v), pages: pagesOf.get(v), app: { startupMs: startups.get(v)[0] } }));
  return servers.flatMap((s) =>
    s.pages.map(({ page }) => {
      const runs = s.runs[page];
      const mean = (f) => runs.reduce((a, r) => a + f(r), 0) / runs.length;
      return {
        variant: s.v.name,
        page,
        startupMs: s.app.startupMs,
        rps: mean((r) => r.rps),
        // Over all the rounds' answers: CPU ms per request.
        cpuMsPerReq: mean((r) => r.cpuMs) / mean((r) => r.requests),
        p99: Math.max(...runs.map((r) => r.p99)),
        errors: runs.reduce((a, r) => a + r.errors, 0),
        kB: mean((r) => r.bytesPerReq) / 1024,
      };
    }),
  );
}
