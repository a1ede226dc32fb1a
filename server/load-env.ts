// Run by the server entry before any other module loads: the project's .env, if any, and
// NODE_ENV=production unless set (React picks its development build otherwise). The
// process environment wins over the file.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The project root: the nearest folder with a package.json above this code (built, it sits in build/server/). */
export const ROOT = (() => {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
  }
  return start;
})();

const envFile = path.join(ROOT, ".env");
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
process.env.NODE_ENV ??= "production";
