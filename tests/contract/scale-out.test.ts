// Issue 5, scale-out proof: two app processes on one PostgreSQL. A shopper signs up
// and orders through one; the other serves the confirmation link, the review, and
// My Mixtapes. Both processes start at once on an empty database (advisory lock).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmationLink, Shopper, startApp, type AppServer } from "../support/app-server";
import { postgresAvailable, startPostgresCluster, type PostgresCluster } from "../support/postgres";

const available = postgresAvailable();

describe.skipIf(!available)("Scale-out: two app processes on one PostgreSQL", () => {
  let cluster: PostgresCluster;
  let a: AppServer;
  let b: AppServer;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-scale-"));

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const url = await cluster.createDatabase("mixtape_scale");
    const env = {
      DATABASE_URL: url,
      SESSION_SECRET: "scale-out-test-secret-0123456789",
      DATA_DIR: dataDir,
      SITE_URL: "https://shop.example",
    };
    [a, b] = await Promise.all([startApp(env), startApp(env)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await cluster?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("an order placed through one process shows in My Mixtapes through the other", async () => {
    expect(a.output()).toContain("postgres backend");
    expect(fs.existsSync(path.join(dataDir, "mixtape.lock"))).toBe(false);
    const { rows } = await cluster.admin(`select 1`);
    expect(rows).toHaveLength(1);

    const shopper = new Shopper();
    const email = `scale.${Date.now()}@example.com`;
    let res = await shopper.request(a.url, "/auth?mode=signup", {
      form: { mode: "signup", username: `scale_${Date.now() % 1e6}`, email, password: "correct-horse-42" },
    });
    expect(res.status).toBe(302);
    const link = await confirmationLink(dataDir, email);
    res = await shopper.request(b.url, link.pathname + link.search);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");

    for (const songId of ["4", "8"]) {
      res = await shopper.request(a.url, "/", { form: { intent: "add", songId } });
      expect(res.status).toBe(303);
    }
    res = await shopper.request(b.url, "/review", { form: { intent: "generate-code" } });
    expect(res.status).toBe(303);
    const review = await (await shopper.request(a.url, "/review")).text();
    const code = review.match(/data-testid="order-code"[^>]*>([A-Z0-9]{8})</)?.[1];
    expect(code).toMatch(/^[A-Z0-9]{8}$/);

    res = await shopper.request(a.url, "/review", { form: { intent: "transmit", code: code! } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/?placed=${code}`);

    const page = await (await shopper.request(b.url, "/my-mixtapes")).text();
    expect(page).toContain(code);
    expect(page).toContain("Signal Jammer");
    expect(page).toContain("Rebel Broadcast");
  });
});
