// The host's probes (docs/deploy.md, "Health and readiness"):
// - GET /healthz (liveness): 200 while the process serves, no database work.
// - GET /readyz (readiness): 200 "ready" when the database answers and every migration this
//   build knows is applied; otherwise 503 and the failing check's name (tests/system/outage.test.ts
//   stops the database and removes a migration).
// - Both answer any well-formed Host (a probe names the pod's address), are never cached, and
//   are logged below info; other requests keep their one line at info.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { suiteServer } from "./setup";

/** A GET with a Host header of our choosing (fetch does not let a caller set it). */
function getWithHost(base: string, pathname: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${pathname}`, { headers: { host }, agent: false }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
  });
}

describe("probes: /healthz and /readyz", () => {
  const server = suiteServer("probes", { env: { LOG_LEVEL: "info", ALLOWED_HOSTS: "shop.example.com" } });

  it("liveness: 200 and {status: ok}, never cached", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ status: "ok" });
    expect((await fetch(`${server.url}/healthz`, { method: "HEAD" })).status).toBe(200);
  });

  it("readiness: 200 ready once the database answers and the migrations are applied, never cached", async () => {
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe("ready");
    expect((await fetch(`${server.url}/readyz`, { method: "HEAD" })).status).toBe(200);
  });

  it("answers a probe's own Host while ALLOWED_HOSTS refuses it for pages", async () => {
    expect(await getWithHost(server.url, "/readyz", "10.0.3.7:3000")).toEqual({ status: 200, body: "ready" });
    expect((await getWithHost(server.url, "/healthz", "10.0.3.7:3000")).status).toBe(200);
    expect((await getWithHost(server.url, "/auth", "10.0.3.7:3000")).status).toBe(400);
    expect((await getWithHost(server.url, "/auth", "shop.example.com")).status).toBe(200);
  });

  it("logs probes below info; a page keeps its request line", async () => {
    for (let i = 0; i < 3; i++) {
      await fetch(`${server.url}/healthz?probe=${i}`);
      await fetch(`${server.url}/readyz?probe=${i}`);
    }
    await getWithHost(server.url, "/auth?after=probes", "shop.example.com");
    await expect.poll(() => server.output()).toMatch(/"path":"\/auth\?after=probes"/);
    expect(server.output()).not.toMatch(/"path":"\/(healthz|readyz)/);
  });
});
