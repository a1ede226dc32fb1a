// Client transfer sizes: what a first visit loads, from the build's manifest and the served HTML.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { ROOT, expectStatus, request } from "../lib.js";
import { BASELINE_DIR } from "../config.js";

function compressedSizes(buf) {
  return {
    raw: buf.length,
    gzip: zlib.gzipSync(buf, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(buf, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buf.length },
    }).length,
  };
}

function sumSizes(files, clientDir = path.join(ROOT, "build/client")) {
  const total = { raw: 0, gzip: 0, brotli: 0, files: [] };
  for (const f of files) {
    const s = compressedSizes(fs.readFileSync(path.join(clientDir, f)));
    total.raw += s.raw;
    total.gzip += s.gzip;
    total.brotli += s.brotli;
    total.files.push({ file: f, ...s });
  }
  return total;
}

/** The React Router manifest of the build (build/client/assets/manifest-*.js). */
function readRouterManifest(html, dir = path.join(ROOT, "build/client/assets")) {
  const version = /"version"\s*:\s*"([\w-]+)"/.exec(html)?.[1];
  const candidates = fs.readdirSync(dir).filter((f) => /^manifest-[\w-]+\.js$/.test(f));
  const file = candidates.find((f) => version && f === `manifest-${version}.js`) ?? candidates[0];
  if (!file) throw new Error("no build/client/assets/manifest-*.js");
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  const json = /window\.__reactRouterManifest\s*=\s*(\{[\s\S]*\})\s*;?\s*$/.exec(text)?.[1];
  if (!json) throw new Error(`cannot parse ${file}`);
  return { file: `assets/${file}`, manifest: JSON.parse(json) };
}

/** JS and CSS a first visit to a page loads: the entry, and each matched route with its imports. */
function pageAssets(m, routeIds) {
  const js = new Set([m.manifest.entry.module, ...m.manifest.entry.imports]);
  const css = new Set(m.manifest.entry.css ?? []);
  for (const id of routeIds) {
    const r = m.manifest.routes[id];
    if (!r) throw new Error(`route ${id} is not in the manifest`);
    if (r.module) js.add(r.module);
    for (const i of r.imports ?? []) js.add(i);
    for (const c of r.css ?? []) css.add(c);
  }
  const strip = (u) => u.replace(/^\//, "");
  return { js: [...js].map(strip), css: [...css].map(strip) };
}

/**
 * Assets the server-rendered HTML makes the browser load: modulepreload and
 * stylesheet links, script src, and the static and dynamic imports of inline
 * module scripts (not the URLs inside the inlined route manifest).
 */
function htmlAssets(html) {
  const js = new Set();
  const css = new Set();
  const attr = (tag, name) => new RegExp(`\\s${name}=["']([^"']+)["']`, "i").exec(tag)?.[1];
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attr(tag, "rel");
    const href = attr(tag, "href");
    if (!href?.startsWith("/assets/")) continue;
    if (rel === "modulepreload" || (rel === "preload" && attr(tag, "as") === "script")) js.add(href.slice(1));
    if (rel === "stylesheet") css.add(href.slice(1));
  }
  for (const [, src] of html.matchAll(/<script\b[^>]*\ssrc=["'](\/assets\/[^"']+)["']/gi)) js.add(src.slice(1));
  for (const [, body] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const [, u] of body.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\/assets\/[^"']+)["']/g))
      js.add(u.slice(1));
  }
  return { js: [...js], css: [...css] };
}

/** The JS a first visit to `/` loads, of the build whose client files are in clientDir: gzip and brotli bytes. */
export function homeJs(html, clientDir = path.join(ROOT, "build/client")) {
  const assets = pageAssets(readRouterManifest(html, path.join(clientDir, "assets")), [
    "root",
    "routes/home",
    "routes/home/index",
  ]);
  return sumSizes([...new Set([...assets.js, ...htmlAssets(html).js])], clientDir);
}

/** The same for the stock baseline app (its one route), whose client files are in clientDir. */
export function baselineJs(html, clientDir = path.join(BASELINE_DIR, "build/client")) {
  const assets = pageAssets(readRouterManifest(html, path.join(clientDir, "assets")), ["root", "routes/home"]);
  return sumSizes([...new Set([...assets.js, ...htmlAssets(html).js])], clientDir);
}

export async function transferSizes(base, deckShopper, baselineBase) {
  const home = await expectStatus(base, { path: "/", jar: deckShopper.jar.clone() }, 200);
  const auth = await expectStatus(base, { path: "/auth" }, 200);
  const m = readRouterManifest(home.body);
  const pages = {
    "/": pageAssets(m, ["root", "routes/home", "routes/home/index"]),
    "/auth": pageAssets(m, ["root", "routes/auth"]),
  };
  // The framework's own floor: the stock baseline app's first-visit JS.
  const baselineHtml = await (await fetch(`${baselineBase}/`)).text();
  const bm = readRouterManifest(baselineHtml, path.join(BASELINE_DIR, "build/client/assets"));
  const baselineFiles = new Set([...pageAssets(bm, ["root", "routes/home"]).js, ...htmlAssets(baselineHtml).js]);
  const baselineJs = sumSizes([...baselineFiles], path.join(BASELINE_DIR, "build/client"));
  // What the server really sends for / (its compression middleware, per-chunk flushes included).
  const served = {};
  for (const enc of ["gzip", "br"]) {
    const res = await request(base, { path: "/", jar: deckShopper.jar.clone(), headers: { "accept-encoding": enc }, raw: true });
    served[enc] = { bytes: res.body.length, encoding: res.headers["content-encoding"] ?? "identity" };
  }
  const out = { manifestFile: m.file, pages: {}, baselineJs, servedHome: served };
  for (const [page, assets] of Object.entries(pages)) {
    const html = page === "/" ? home.body : auth.body;
    const loaded = htmlAssets(html);
    // What the page really fetches: the manifest walk plus anything else its HTML loads.
    const onlyInHtml = [...loaded.js, ...loaded.css].filter((f) => !assets.js.includes(f) && !assets.css.includes(f));
    const notInHtml = [...assets.js, ...assets.css].filter((f) => !loaded.js.includes(f) && !loaded.css.includes(f));
    out.pages[page] = {
      js: sumSizes([...new Set([...assets.js, ...loaded.js])]),
      css: sumSizes([...new Set([...assets.css, ...loaded.css])]),
      html: compressedSizes(Buffer.from(html)),
      onlyInHtml,
      notInHtml,
    };
  }
  return out;
}
