// The drop's upload and download rows: bench/scenarios/drop-measure.js measures them, this runs them in
// `npm run bench` with the sizes and rounds of bench/lib/config.js, on servers of their own.
import { measureRangeDownloads, measureUploads } from "./drop-measure.js";
import { dropRows } from "../report/drop.js";
import { CFG, log } from "../lib/config.js";
import { f1, f2 } from "../report/format.js";

/** Uploads (plain form, tus) against a bare stream, then range downloads against nginx; their budget rows. */
export async function dropScenario() {
  log(`the drop: a ${CFG.dropUploadMb} MB tape uploaded by the plain form and by tus, against a bare stream`);
  const uploads = await measureUploads({ sizeMb: CFG.dropUploadMb, rounds: CFG.dropRounds });
  log(
    `  form ${f2(uploads.formRatio)}x, tus ${f2(uploads.tusRatio)}x (bare ${f1(uploads.bareMbs)} MB/s); RSS +${f1(uploads.formRssMb)} / +${f1(uploads.tusRssMb)} MB`,
  );
  log(`the drop: 20 range readers of a ${CFG.dropDownloadMb} MB tape, against nginx`);
  const downloads = await measureRangeDownloads({ sizeMb: CFG.dropDownloadMb, rounds: CFG.dropRounds });
  log(
    `  ${f2(downloads.ratio)}x (${f1(downloads.appMbs)} of ${f1(downloads.nginxMbs)} MB/s), RSS +${f1(downloads.rssGrowthMb)} MB`,
  );
  return { uploads, downloads, rows: dropRows({ uploads, downloads }) };
}
