// `npm install`'s last step (postinstall): React Router 7's own fix for Vite 8.1's deprecation
// of `envFile: false`, which made every build print "The `envFile` option is deprecated" nine
// times. React Router 8 has the fix (remix-run/react-router#15230); the 7.x line does not
// (docs/decisions/010-envfile-warning.md). The same one-word change, in the four internal Vite
// servers of @react-router/dev 7.x: `envDir: false` is what Vite maps `envFile: false` to.
// Does nothing when @react-router/dev is absent (a production install) or already fixed.
import fs from "node:fs";
import path from "node:path";

const dir = path.resolve("node_modules/@react-router/dev");
const FILES = ["dist/cli/index.js", "dist/vite.js", "dist/vite/cloudflare.js"];

let manifest;
try {
  manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
} catch {
  process.exit(0); // not installed (npm ci --omit=dev)
}
if (!manifest.version.startsWith("7.")) process.exit(0);

for (const file of FILES) {
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) continue;
  const source = fs.readFileSync(full, "utf8");
  const fixed = source.replace(/^(\s*)envFile: false,$/gm, "$1envDir: false,");
  if (fixed !== source) fs.writeFileSync(full, fixed);
}
