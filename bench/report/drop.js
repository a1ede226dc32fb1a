// The report's section on the drop: a tape's upload and its range downloads.
import { BUDGETS } from "../lib/config.js";
import { f0, f1, f2, pf } from "./format.js";

export const DROP_BUDGET = { ratio: BUDGETS.dropRatio, rssMb: BUDGETS.dropRssGrowthMb };

export function dropSection(r, p) {
  p("## The drop: a tape's upload and its downloads");
  p();
  p(
    "The mixer uploads a tape and the shopper plays and downloads it: these rows keep both near what the disk and a plain file server do, without holding the file in memory.",
  );
  const { uploads: u, downloads: d } = r.drop;
  p(
    `Upload: a ${f1(u.sizeMb)} MB WAV through the app by the plain form (multipart, no JavaScript) and by tus (16 MB PATCHes, as the Tape card sends them),`,
  );
  p(
    `each against a bare Node stream writing and flushing the same bytes to the same disk; ${u.rounds} alternating rounds, the median run's rate (of two, the slower) (\`bench/scenarios/drop-measure.js\`).`,
  );
  p(
    `Downloads: ${d.clients} concurrent readers of a ${f1(d.sizeMb)} MB tape by ${d.rangeMb} MB ranges through the session-bound route, against ${d.nginxVersion.replace(/^nginx version: /, "")} (one worker, sendfile) serving the same file; ${d.rounds} alternating rounds.`,
  );
  p(
    `RSS: the server's VmRSS sampled every 50 ms during each run; the budget is its growth over the RSS before the run (at most ${BUDGETS.dropRssGrowthMb} MB), with a rate of at least ${BUDGETS.dropRatio}x the floor.`,
  );
  p();
  p(
    "Server CPU: the app's own user + system time (from /proc) per 100 MB it received or served, which a busy neighbour moves far less than the rate.",
  );
  p();
  p("| row | app MB/s | floor MB/s | × floor | server CPU ms per 100 MB | RSS growth MB | peak RSS MB | result |");
  p("|---|---:|---:|---:|---:|---:|---:|---|");
  const cpu = (ms) => (ms === undefined ? "" : f0(ms));
  const ok = (ratio, growth) => ratio >= BUDGETS.dropRatio && growth <= BUDGETS.dropRssGrowthMb;
  p(
    `| upload without JavaScript (plain form → busboy → content check → disk store) | ${f1(u.formMbs)} | ${f1(u.bareMbs)} (bare stream) | ${f2(u.formRatio)} | ${cpu(u.formCpuMsPer100Mb)} | ${f1(u.formRssMb)} | ${f1(u.formPeakMb)} | ${pf(ok(u.formRatio, u.formRssMb))} |`,
  );
  p(
    `| upload with JavaScript (tus → staged → content check → linked into the disk store) | ${f1(u.tusMbs)} | ${f1(u.bareMbs)} (bare stream) | ${f2(u.tusRatio)} | ${cpu(u.tusCpuMsPer100Mb)} | ${f1(u.tusRssMb)} | ${f1(u.tusPeakMb)} | ${pf(ok(u.tusRatio, u.tusRssMb))} |`,
  );
  p(
    `| ${d.clients} range downloads (session check → disk store) | ${f1(d.appMbs)} | ${f1(d.nginxMbs)} (nginx) | ${f2(d.ratio)} | ${cpu(d.cpuMsPer100Mb)} | ${f1(d.rssGrowthMb)} | ${f1(d.peakMb)} | ${pf(ok(d.ratio, d.rssGrowthMb))} |`,
  );
  p();
  p(
    `Load average at the end of the upload and download runs: ${f1(u.load1)} and ${f1(d.load1)} (2 cores). The same rows with the small-host memory settings are in "Memory on a small host".`,
  );
  p();
}

/** The whole run's rows ({ name, measured, ok }), each with the reason it exists. */
export function dropRows({ uploads, downloads }) {
  const rows = [];
  if (uploads) {
    const u = uploads;
    const base = `${f1(u.sizeMb)} MB; a bare Node stream to the same disk: ${f1(u.bareMbs)} MB/s`;
    rows.push({
      name: `Drop: upload without JavaScript (plain form, busboy → content check → disk store) vs a bare stream (>= ${DROP_BUDGET.ratio}x, RSS +${DROP_BUDGET.rssMb} MB)`,
      measured: `${f2(u.formRatio)}x (${f1(u.formMbs)} MB/s; ${base}), RSS +${f1(u.formRssMb)} MB`,
      ok: u.formRatio >= DROP_BUDGET.ratio && u.formRssMb <= DROP_BUDGET.rssMb,
      reason: "a mixer's 300 MB tape must not take much longer than the disk takes, nor hold the file in memory",
    });
    rows.push({
      name: `Drop: upload with JavaScript (tus, 16 MB PATCHes → staged → content check → linked into the disk store) vs a bare stream (>= ${DROP_BUDGET.ratio}x, RSS +${DROP_BUDGET.rssMb} MB)`,
      measured: `${f2(u.tusRatio)}x (${f1(u.tusMbs)} MB/s; ${base}), RSS +${f1(u.tusRssMb)} MB`,
      ok: u.tusRatio >= DROP_BUDGET.ratio && u.tusRssMb <= DROP_BUDGET.rssMb,
      reason: "resumable must not mean slow: the staged file is checked where it lies and linked into the store, never copied",
    });
  }
  if (downloads) {
    const d = downloads;
    rows.push({
      name: `Drop: ${d.clients} concurrent range downloads of a ${f1(d.sizeMb)} MB tape (session-bound route) vs nginx (>= ${DROP_BUDGET.ratio}x, RSS +${DROP_BUDGET.rssMb} MB)`,
      measured: `${f2(d.ratio)}x (${f1(d.appMbs)} MB/s; ${d.nginxVersion.replace(/^nginx version: /, "")}, 1 worker, sendfile: ${f1(d.nginxMbs)} MB/s; ${d.rangeMb} MB ranges), RSS +${f1(d.rssGrowthMb)} MB`,
      ok: d.ratio >= DROP_BUDGET.ratio && d.rssGrowthMb <= DROP_BUDGET.rssMb,
      reason: "players seek and slow lines resume: every range passes the session check and streams from disk",
    });
  }
  return rows;
}
