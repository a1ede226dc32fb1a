// Imported first by the server entry: the project's .env, if any, before any module
// reads the configuration. The process environment wins over the file.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The project root: this code runs built, from build/server/index.js. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const envFile = path.join(ROOT, ".env");
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
