// `npm install`'s last step (postinstall): two upstream React Router fixes that the 7.x line we
// stay on (8 needs Node 22, docs/decisions/009) has no release with. Each is the upstream change,
// made in the installed dist files, and each does nothing when its package is absent or already
// fixed. Remove an entry when moving to React Router 8.
//   - docs/decisions/010-envfile-warning.md: @react-router/dev sets Vite's deprecated
//     `envFile: false` in the four Vite servers it starts (remix-run/react-router#15230).
//   - docs/decisions/016-stream-race-leak.md: @react-router/node races every chunk of a response
//     body against one long-lived promise, which keeps every chunk until the body ends
//     (remix-run/react-router#15247, fixed in 8.x by #15500): a 100 MB tape download held 100 MB.
//   - docs/decisions/018-cookie-keys.md: react-router imports the HMAC key again for every cookie
//     it signs or verifies (unchanged in 8.x): the key is imported once per secret and use.
import fs from "node:fs";
import path from "node:path";

/** Marks a patched file, so a second install finds it done. */
const MARK = "/* mixtape: react-router#15500 */";

const RACE_FROM = `    race(promise) {
      return Promise.race([promise, writableErrorPromise]);
    },`;
// A pending promise per wait, rejected with the writable's error and dropped once the wait settles.
const RACE_TO = `    race(promise) { ${MARK}
      if (writableError) return Promise.race([promise, Promise.reject(writableError)]);
      let rejectPending;
      let pending = new Promise((_, reject3) => {
        rejectPending = reject3;
      });
      pending.catch(() => {
      });
      pendingRejections.add(rejectPending);
      return Promise.race([promise, pending]).finally(() => pendingRejections.delete(rejectPending));
    },`;

const KEY_FROM =
  /^var (createKey\d*) = async \(secret, usages\) => crypto\.subtle\.importKey\(\n {2}"raw",\n {2}encoder\.encode\(secret\),\n {2}\{ name: "HMAC", hash: "SHA-256" \},\n {2}false,\n {2}usages\n\);$/m;
// The same import, kept per secret and use; a failed import is not kept.
const keyTo = (name) => `var ${name}Keys = /* @__PURE__ */ new Map(); /* mixtape: cookie keys */
var ${name} = (secret, usages) => {
  let id = usages.join() + ":" + secret;
  let key = ${name}Keys.get(id);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, usages);
    ${name}Keys.set(id, key);
    key.catch(() => ${name}Keys.delete(id));
  }
  return key;
};`;

/** Every .js and .mjs file under dir. */
const scripts = (dir) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true })
        .map(String)
        .filter((f) => /\.m?js$/.test(f))
    : [];

export const PATCHES = [
  {
    name: "envFile",
    pkg: "@react-router/dev",
    files: ["dist/cli/index.js", "dist/vite.js", "dist/vite/cloudflare.js"],
    apply: (source) => source.replace(/^(\s*)envFile: false,$/gm, "$1envDir: false,"),
  },
  {
    name: "stream race",
    pkg: "@react-router/node",
    files: ["dist/index.js", "dist/index.mjs"],
    apply(source) {
      if (source.includes(MARK) || !source.includes(RACE_FROM)) return source;
      return source
        .replace(RACE_FROM, RACE_TO)
        .replace("  let rejectWritableError;\n", "  let rejectWritableError;\n  let pendingRejections = new Set();\n")
        .replace(
          "    rejectWritableError(error);\n",
          "    rejectWritableError(error);\n    for (let rejectPending of [...pendingRejections]) rejectPending(error);\n    pendingRejections.clear();\n",
        );
    },
  },
  {
    name: "cookie keys",
    pkg: "react-router",
    files: (dir) => scripts(path.join(dir, "dist")).map((f) => path.join("dist", f)),
    apply: (source) => source.replace(KEY_FROM, (_, name) => keyTo(name)),
  },
];

export function patchAll(root = process.cwd()) {
  for (const patch of PATCHES) {
    const dir = path.join(root, "node_modules", patch.pkg);
    let manifest;
    try {
      manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    } catch {
      continue; // not installed (@react-router/dev in npm ci --omit=dev)
    }
    if (!manifest.version.startsWith("7.")) continue;
    for (const file of typeof patch.files === "function" ? patch.files(dir) : patch.files) {
      const full = path.join(dir, file);
      if (!fs.existsSync(full)) continue;
      const source = fs.readFileSync(full, "utf8");
      const fixed = patch.apply(source);
      if (fixed !== source) fs.writeFileSync(full, fixed);
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) patchAll();
