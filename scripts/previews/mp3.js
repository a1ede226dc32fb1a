// MP3 encoding of a preview with lamejs.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { SR, KBPS } from "./song.js";

const require = createRequire(import.meta.url);
// lamejs 1.2.1: the package's `main` (src/js/index.js, the per-file modules)
// is broken under Node ("MPEGMode is not defined"). The bundled single-file
// build lame.all.js works, but it only declares a global `lamejs` function and
// has no module.exports, so evaluate it and return that function.
function loadLamejs() {
  const file = require.resolve("lamejs/lame.all.js");
  const src = readFileSync(file, "utf8");
  return new Function(`${src}\nreturn lamejs;`)();
}
const lamejs = loadLamejs();

export function encodeMp3(pcm) {
  const enc = new lamejs.Mp3Encoder(1, SR, KBPS);
  const chunks = [];
  const block = 1152;
  for (let i = 0; i < pcm.length; i += block) {
    const out = enc.encodeBuffer(pcm.subarray(i, i + block));
    if (out.length) chunks.push(Buffer.from(out.buffer, out.byteOffset, out.length));
  }
  const end = enc.flush();
  if (end.length) chunks.push(Buffer.from(end.buffer, end.byteOffset, end.length));
  return Buffer.concat(chunks);
}
