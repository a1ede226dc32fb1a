// `npm start`'s first step (prestart): builds the app when there is no build yet, so
// `npm install && npm start` works on a fresh checkout.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

if (!fs.existsSync("build/server/index.js")) {
  console.log("No build found: building first (npm run build)...");
  const result = spawnSync(process.execPath, ["node_modules/@react-router/dev/bin.cjs", "build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  process.exit(result.status ?? 1);
}
