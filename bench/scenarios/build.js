// Building the app and the stock React Router baseline, and starting the baseline's server.
import path from "node:path";
import { Jar, ROOT, expectStatus, freePort, now, runNode, spawnLogged, waitFor200 } from "../lib/index.js";
import { DEV_BIN, BASELINE_DIR, log } from "../lib/config.js";

export async function build() {
  let s = now();
  await runNode([DEV_BIN, "build"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
    name: "react-router build (app)",
  });
  const appMs = now() - s;
  log(`app built in ${(appMs / 1000).toFixed(1)} s`);
  s = now();
  await runNode([DEV_BIN, "build"], {
    cwd: BASELINE_DIR,
    env: { ...process.env, NODE_ENV: "production" },
    name: "react-router build (baseline)",
  });
  log(`baseline built in ${((now() - s) / 1000).toFixed(1)} s`);
  return { appMs };
}

export async function startBaseline() {
  const port = await freePort();
  const since = now();
  const child = spawnLogged(process.execPath, [path.join(BASELINE_DIR, "server.js")], {
    cwd: BASELINE_DIR,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1" },
    name: "baseline server",
  });
  const base = `http://127.0.0.1:${port}`;
  const startupMs = await waitFor200(`${base}/`, child, since);
  // One visitor: its signed session cookie is read on every measured request.
  const jar = new Jar();
  await expectStatus(base, { path: "/", jar }, 200);
  if (!jar.get("baseline-session")) throw new Error("the baseline set no session cookie");
  const again = await expectStatus(base, { path: "/", jar }, 200);
  if (again.setCookies.length) throw new Error("the baseline rewrote its cookie for a known visitor");
  return { child, base, jar, startupMs };
}
