// Starts the production server (`node build/server/index.js`) as a child process for
// system-level tests, and a tiny cookie-keeping HTTP client to drive it.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort } from "./process";
export { freePort };

const ROOT = path.resolve(import.meta.dirname, "../..");

export type AppServer = { url: string; pid: number; child: ChildProcess; output: () => string; stop(): Promise<void> };

export async function startApp(env: Record<string, string>, port?: number): Promise<AppServer> {
  port ??= await freePort();
  let output = "";
  const child = spawn(process.execPath, ["build/server/index.js"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), RATE_LIMIT_FACTOR: "10000", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${output}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      /* not yet listening */
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

/** A shopper's HTTP client: keeps cookies, never follows redirects by itself. */
export class Shopper {
  cookies = new Map<string, string>();
  async request(base: string, pathname: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    let body: string | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers["Content-Type"] = "application/x-www-form-urlencoded";
    }
    const res = await fetch(base + pathname, {
      method: init.method ?? (body ? "POST" : "GET"),
      headers,
      body,
      redirect: "manual",
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

import { confirmationLink } from "./outbox";
export { confirmationLink };

/** Signs an account up over HTTP and opens its emailed confirmation link: a confirmed account. */
export async function signUpConfirmed(
  base: string,
  dataDir: string,
  account: { username: string; email: string; password: string },
) {
  const res = await fetch(`${base}/auth?mode=signup`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ mode: "signup", ...account }),
    redirect: "manual",
  });
  if (res.status !== 302) throw new Error(`sign-up answered ${res.status}`);
  const confirmed = await fetch(await confirmationLink(dataDir, account.email), { redirect: "manual" });
  if (confirmed.status !== 302) throw new Error(`confirmation answered ${confirmed.status}`);
}
