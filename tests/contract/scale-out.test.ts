// Issue 5, scale-out proof: two app processes on one PostgreSQL, their tapes in one S3 store
// (issue 38: a store on one process's disk cannot serve two). A shopper signs up and orders
// through one; the other serves the confirmation link, the review, and My Mixtapes. Both
// processes start at once on an empty database (advisory lock). With DROP_STORAGE=disk a second
// process refuses to start, naming DROP_STORAGE=s3.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmationLink, Shopper, startApp, type AppServer } from "../support/app-server";
import { postgresAvailable, startPostgresCluster, type PostgresCluster } from "../support/postgres";
import { s3Env, startS3Server } from "../support/storage-adapters";

const available = postgresAvailable();

describe.skipIf(!available)("Scale-out: two app processes on one PostgreSQL", () => {
  let cluster: PostgresCluster;
  let a: AppServer;
  let b: AppServer;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let env: Record<string, string>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-scale-"));

  beforeAll(async () => {
    [cluster, s3] = await Promise.all([startPostgresCluster(), startS3Server()]);
    const url = await cluster.createDatabase("mixtape_scale");
    env = {
      DATABASE_URL: url,
      SESSION_SECRET: "scale-out-test-secret-0123456789",
      DATA_DIR: dataDir,
      SITE_URL: "https://shop.example",
      ...(await s3Env(s3.endpoint, "scale-tapes")),
    };
    [a, b] = await Promise.all([startApp(env), startApp(env)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all([cluster?.destroy(), s3?.stop()]);
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

  it("with DROP_STORAGE=disk a second process on the database refuses to start, naming DROP_STORAGE=s3", async () => {
    const diskDir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-scale-disk-"));
    const first = await startApp({ ...env, DROP_STORAGE: "disk", DATA_DIR: diskDir });
    try {
      await expect(startApp({ ...env, DROP_STORAGE: "disk", DATA_DIR: diskDir })).rejects.toThrow(/DROP_STORAGE=s3/);
    } finally {
      await first.stop();
      fs.rmSync(diskDir, { recursive: true, force: true });
    }
  });
});
