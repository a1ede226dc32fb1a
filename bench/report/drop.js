// The report's section on the drop (issue 38): a tape's upload and its range downloads.
import { BUDGETS } from "../config.js";
import { f1, f2, pf } from "./format.js";

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
    `each against a bare Node stream writing and flushing the same bytes to the same disk; ${u.rounds} alternating rounds, the median run's rate (of two, the slower) (\`bench/drop.js\`).`,
  );
  p(
    `Downloads: ${d.clients} concurrent readers of a ${f1(d.sizeMb)} MB tape by ${d.rangeMb} MB ranges through the session-bound route, against ${d.nginxVersion.replace(/^nginx version: /, "")} (one worker, sendfile) serving the same file; ${d.rounds} alternating rounds.`,
  );
  p(
    `RSS: the server's VmRSS sampled every 50 ms during each run; the budget is its growth over the RSS before the run (at most ${BUDGETS.dropRssGrowthMb} MB), with a rate of at least ${BUDGETS.dropRatio}x the floor.`,
  );
  p();
  p("| row | app MB/s | floor MB/s | × floor | RSS growth MB | peak RSS MB | result |");
  p("|---|---:|---:|---:|---:|---:|---|");
  const ok = (ratio, growth) => ratio >= BUDGETS.dropRatio && growth <= BUDGETS.dropRssGrowthMb;
  p(
    `| upload without JavaScript (plain form → busboy → content check → disk store) | ${f1(u.formMbs)} | ${f1(u.bareMbs)} (bare stream) | ${f2(u.formRatio)} | ${f1(u.formRssMb)} | ${f1(u.formPeakMb)} | ${pf(ok(u.formRatio, u.formRssMb))} |`,
  );
  p(
    `| upload with JavaScript (tus → staged → content check → disk store) | ${f1(u.tusMbs)} | ${f1(u.bareMbs)} (bare stream) | ${f2(u.tusRatio)} | ${f1(u.tusRssMb)} | ${f1(u.tusPeakMb)} | ${pf(ok(u.tusRatio, u.tusRssMb))} |`,
  );
  p(
    `| ${d.clients} range downloads (session check → disk store) | ${f1(d.appMbs)} | ${f1(d.nginxMbs)} (nginx) | ${f2(d.ratio)} | ${f1(d.rssGrowthMb)} | ${f1(d.peakMb)} | ${pf(ok(d.ratio, d.rssGrowthMb))} |`,
  );
  p();
  p(
    `Load average at the end of the upload and download runs: ${f1(u.load1)} and ${f1(d.load1)} (2 cores). The same rows with the small-host memory settings are in "Memory on a small host".`,
  );
  p();
}
