// `npm run dev` serves through the production pipeline (server/app.ts mounted in Vite's
// dev server) on PORT: the CSP nonce on every script, the cross-site refusal, the request log.
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUSAL_COPY } from "~/domain/copy";
import { Client, freePort, htmlText, ROOT, suiteTempDir } from "./setup";

describe("npm run dev", () => {
  const dataDir = suiteTempDir("dev");
  let child: ChildProcess;
  let url = "";
  let output = "";

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(
      process.execPath,
      // PORT, not --port: the dev server listens where the production server would.
      [path.join(ROOT, "node_modules/@react-router/dev/bin.cjs"), "dev", "--host", "127.0.0.1"],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: "development",
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: "",
          SUPABASE_URL: "",
          SESSION_SECRET: "",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    for (let i = 0; i < 600; i++) {
      try {
        if ((await fetch(`${url}/readyz`)).ok) return;
      } catch {
        /* not listening yet */
      }
      if (child.exitCode !== null) throw new Error(`dev server exited: ${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`dev server did not start: ${output}`);
  }, 150_000);

  afterAll(async () => {
    child?.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    if (child && child.exitCode === null) child.kill("SIGKILL");
  });

  it("sends a CSP nonce that every script tag carries", async () => {
    const reply = await new Client(url).get("/auth");
    expect(reply.status).toBe(200);
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(reply.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    const scripts = [...reply.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(reply.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers a cross-site POST with 403 and the refusal page", async () => {
    const reply = await new Client(url).post(
      "/auth",
      { mode: "login", email: "a@b.co", password: "x" },
      { origin: "https://evil.example" },
    );
    expect(reply.status).toBe(403);
    expect(htmlText(reply.body)).toContain(REFUSAL_COPY.crossSite);
  });

  it("logs one line per request with its method, path, status, duration and id", async () => {
    await new Client(url).get("/auth?from=dev-test");
    await expect.poll(() => output).toMatch(/request .*"method":"GET","path":"\/auth\?from=dev-test".*"status":200.*"ms":\d+/);
    expect(output).toMatch(/"requestId":"[0-9a-f-]{36}"/);
  });

  it("prints no deprecation warning of Vite's (docs/decisions/010-envfile-warning.md)", () => {
    expect(output).not.toMatch(/deprecated/i);
  });
});
