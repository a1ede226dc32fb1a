// The drop on S3 (DROP_STORAGE=s3 against fauxqs in this process: not AWS, it checks no
// signature): a tape uploaded with tus is staged on the server's disk, then stored in the bucket,
// and its shopper's download is a redirect to a presigned URL that gives the same bytes.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { s3Env, startS3Server } from "../support/storage-adapters";
import { Client, htmlText, PASSWORD, suiteServer } from "./setup";
import { placeOrder } from "./webhook-senders";

const SHOPPER = { username: "drops3_shopper", email: "drops3.shopper@example.com" };
const MIXER = { username: "drops3_dj", email: "drops3.dj@example.com" };
const sha = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");
let s3: Awaited<ReturnType<typeof startS3Server>>;
let shopper: Client;
let mixer: Client;

beforeAll(async () => {
  s3 = await startS3Server();
}, 300_000);
afterAll(async () => s3?.stop());
const server = suiteServer("drop-s3", {
  shoppers: [SHOPPER, MIXER],
  env: async () => ({ MIXER_EMAILS: MIXER.email, ...(await s3Env(s3.endpoint, "drop-tus")) }),
});
const { dataDir } = server;
beforeAll(async () => {
  [shopper, mixer] = [new Client(server.url), new Client(server.url)];
  expect((await shopper.logIn(SHOPPER.email, PASSWORD)).status).toBe(302);
  expect((await mixer.logIn(MIXER.email, PASSWORD)).status).toBe(302);
});

it("a tus upload lands in the bucket, and the shopper's download is a presigned URL to the same bytes", async () => {
  const code = await placeOrder(shopper);
  const flac = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/audio/tone.flac"));
  const headers = { cookie: mixer.cookieHeader(), origin: server.url, "tus-resumable": "1.0.0" };
  const b64 = (text: string) => Buffer.from(text).toString("base64");
  const created = await fetch(`${server.url}/mixer/uploads`, {
    method: "POST",
    headers: {
      ...headers,
      "upload-length": String(flac.length),
      "upload-metadata": `code ${b64(code)},filename ${b64("mix.flac")}`,
    },
  });
  expect(created.status).toBe(201);
  const url = created.headers.get("location")!;
  const half = Math.floor(flac.length / 2);
  for (const [offset, end] of [
    [0, half],
    [half, flac.length],
  ]) {
    const res = await fetch(server.url + url, {
      method: "PATCH",
      headers: { ...headers, "upload-offset": String(offset), "content-type": "application/offset+octet-stream" },
      body: new Uint8Array(flac.subarray(offset, end)),
    });
    expect(res.status).toBe(end === flac.length ? 200 : 204);
  }
  expect(fs.readdirSync(path.join(dataDir, "tus"))).toEqual([]);
  // The mixer's draft until the drop is sent: no URL for the shopper before.
  const shoppers = (query = "") =>
    fetch(`${server.url}/my-mixtapes/${code}/tape${query}`, { headers: { cookie: shopper.cookieHeader() }, redirect: "manual" });
  expect((await shoppers("?download")).status).toBe(404);
  expect((await mixer.post("/mixer", { intent: "start-mixing", code })).status).toBe(303);
  expect((await mixer.post("/mixer", { intent: "mark-sent", code, deliveryUrl: "", message: "" })).status).toBe(303);

  const download = await fetch(`${server.url}/my-mixtapes/${code}/tape?download`, {
    headers: { cookie: shopper.cookieHeader() },
    redirect: "manual",
  });
  expect(download.status).toBe(302);
  const signed = new URL(download.headers.get("location")!);
  expect(signed.origin).toBe(s3.endpoint);
  expect(Number(signed.searchParams.get("X-Amz-Expires"))).toBeLessThanOrEqual(900);
  const bytes = new Uint8Array(await (await fetch(signed)).arrayBuffer());
  expect(sha(bytes)).toBe(sha(flac));
  // The presigned URL went to the shopper: downloaded.
  expect(htmlText((await mixer.get(`/mixer/orders/${code}`)).body)).toContain("Downloaded 1 time");
});
