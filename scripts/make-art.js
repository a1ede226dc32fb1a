#!/usr/bin/env node
// Generates Mixtape's original SVG artwork. Deterministic, nothing fetched.
//
//   public/art/thumbs/01.svg … 30.svg   160x160 song thumbnails
//   public/art/designs/*.svg            320x200 cassette J-card designs
//   public/art/covers/bg-1..3.svg       400x250 cover-card background textures
//   public/art/hero.svg                 1440x360 hero banner
//   public/favicon.svg                  32x32 cassette icon
//
// Usage: node scripts/make-art.js
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bg1, bg2, bg3 } from "./art/covers.js";
import { designIceCold, designSystemBurnout, designHighVoltage, designUnicornMix } from "./art/designs.js";
import { hero, favicon } from "./art/hero.js";
import { thumb } from "./art/thumbs.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PUBLIC = join(ROOT, "public");

// ---------------------------------------------------------------- write

const files = [];
const put = (rel, content, limit) => {
  const full = join(PUBLIC, rel);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
  files.push([rel, Buffer.byteLength(content), limit]);
};

for (let id = 1; id <= 30; id++) put(`art/thumbs/${String(id).padStart(2, "0")}.svg`, thumb(id), 3072);
put("art/designs/ice-cold.svg", designIceCold(), 12288);
put("art/designs/system-burnout.svg", designSystemBurnout(), 12288);
put("art/designs/high-voltage.svg", designHighVoltage(), 12288);
put("art/designs/unicorn-mix.svg", designUnicornMix(), 12288);
put("art/covers/bg-1.svg", bg1(), 12288);
put("art/covers/bg-2.svg", bg2(), 12288);
put("art/covers/bg-3.svg", bg3(), 12288);
put("art/hero.svg", hero(), 12288);
put("favicon.svg", favicon(), 12288);

export let over = false;
for (const [rel, size, limit] of files) {
  const bad = size > limit;
  if (bad) over = true;
  console.log(`public/${rel}  ${size} B${bad ? `  !! over ${limit} B` : ""}`);
}
if (over) {
  console.error("Some SVGs exceed their size budget.");
  process.exit(1);
}
