// Issue 38, the drop, over HTTP on the production server (the disk store, no JavaScript): the
// mixer's plain-form upload, checked by content and stopped at the limit with nothing left behind;
// the shopper's player (ranges) and download; nobody else's; the drop sent; the account's
// deletion erasing the files.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxMails } from "../support/outbox";
import { Client, htmlText, PASSWORD, seedShoppers, sleepMs, startServer, tempDir, type Server } from "./setup";
import { placeOrder } from "./webhook-senders";

const SHOPPER = { username: "drop_shopper", email: "drop.shopper@example.com" };
const OTHER = { username: "drop_other", email: "drop.other@example.com" };
const MIXER = { username: "drop_dj", email: "drop.dj@example.com" };
const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/audio");
const LIMIT_MB = 1;
const sha = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");

describe("the drop", () => {
  const dataDir = tempDir("drop");
  const drops = path.join(dataDir, "drops");
  let server: Server;
  let shopper: Client;
  let other: Client;
  let mixer: Client;
  /** Every file the disk store holds (partial uploads included). */
  const stored = () =>
    fs.existsSync(drops)
      ? (fs.readdirSync(drops, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(drops, f)).isFile())
      : [];
  /** The order page's plain upload form, as a browser without JavaScript posts it. */
  const upload = async (client: Client, code: string, file: Uint8Array, name: string) => {
    const form = new FormData();
    form.set("tape", new Blob([new Uint8Array(file)]), name);
    const res = await fetch(`${server.url}/mixer/orders/${code}`, {
      method: "POST",
      body: form,
      headers: { cookie: client.cookieHeader(), accept: "text/html", origin: server.url },
      redirect: "manual",
    });
    return { status: res.status, location: res.headers.get("location"), body: htmlText(await res.text()) };
  };
  const get = (client: Client | null, pathname: string, headers: Record<string, string> = {}) =>
    fetch(server.url + pathname, {
      headers: { ...(client ? { cookie: client.cookieHeader() } : {}), ...headers },
      redirect: "manual",
    });

  beforeAll(async () => {
    await seedShoppers(dataDir, [SHOPPER, OTHER, MIXER]);
    server = await startServer({ dataDir, env: { MIXER_EMAILS: MIXER.email, DROP_MAX_MB: String(LIMIT_MB) } });
    [shopper, other, mixer] = [new Client(server.url), new Client(server.url), new Client(server.url)];
    for (const [client, account] of [
      [shopper, SHOPPER],
      [other, OTHER],
      [mixer, MIXER],
    ] as const)
      expect((await client.logIn(account.email, PASSWORD)).status).toBe(302);
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("the mixer uploads a tape without JavaScript; the shopper plays it with ranges and downloads it whole; nobody else", async () => {
    const code = await placeOrder(shopper);
    const tone = fs.readFileSync(path.join(FIXTURES, "tone.mp3"));
    const done = await upload(mixer, code, tone, "Final Mix (v3).mp3");
    expect([done.status, done.location]).toEqual([303, `/mixer/orders/${code}#tape`]);
    const card = htmlText((await mixer.get(`/mixer/orders/${code}`)).body);
    expect(card).toContain("Final Mix (v3).mp3");
    expect(card).toContain("Not downloaded yet");
    const page = htmlText((await shopper.get(`/my-mixtapes/${code}`)).body);
    expect(page).toContain("Your tape");
    expect(page).toContain(`href="/my-mixtapes/${code}/tape?download"`);
    expect(page).toMatch(/<audio[^>]*preload="none"[^>]*src="\/my-mixtapes\/[A-Z0-9]{8}\/tape"/);

    // The player seeks: a range, with what a resumed download needs.
    const part = await get(shopper, `/my-mixtapes/${code}/tape`, { range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${tone.length}`);
    expect(part.headers.get("accept-ranges")).toBe("bytes");
    expect(part.headers.get("etag")).toMatch(/^"/);
    expect(sha(new Uint8Array(await part.arrayBuffer()))).toBe(sha(tone.subarray(100, 200)));
    // The download: the checked type, an attachment named after the tape, private, never sniffed.
    const whole = await get(shopper, `/my-mixtapes/${code}/tape?download`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/mpeg");
    expect(whole.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="[A-Z0-9 -]+ - ${code}\\.mp3"`));
    expect(whole.headers.get("x-content-type-options")).toBe("nosniff");
    expect(whole.headers.get("cache-control")).toMatch(/private/);
    expect(sha(new Uint8Array(await whole.arrayBuffer()))).toBe(sha(tone));
    expect(htmlText((await mixer.get(`/mixer/orders/${code}`)).body)).toContain("Downloaded 1 time");

    // Another shopper, a signed-out visitor, a shopper at the mixer's address: no bytes.
    expect((await get(other, `/my-mixtapes/${code}/tape`)).status).toBe(404);
    const anonymous = await get(null, `/my-mixtapes/${code}/tape`);
    expect([anonymous.status, anonymous.headers.get("location")]).toEqual([302, "/auth"]);
    expect((await get(shopper, `/mixer/orders/${code}/tape`)).status).toBe(404);
    expect((await get(shopper, `/my-mixtapes/ZZZZZZZZ/tape`)).status).toBe(404);
    // Downloaded: a new upload no longer replaces it.
    const late = await upload(mixer, code, fs.readFileSync(path.join(FIXTURES, "tone.ogg")), "v4.ogg");
    expect(late.status).toBe(409);
    expect(late.body).toContain("The shopper has downloaded this tape already: it stays as it is.");
  });

  it("refuses what is not audio, and a file one byte over the limit, keeping nothing", async () => {
    const code = await placeOrder(shopper);
    const before = stored();
    const image = await upload(mixer, code, fs.readFileSync(path.join(FIXTURES, "image.mp3")), "cover.mp3");
    expect(image.status).toBe(415);
    expect(image.body).toContain("This file is not audio (MP3, M4A, OGG, FLAC or WAV).");
    const text = await upload(mixer, code, fs.readFileSync(path.join(FIXTURES, "notes.txt")), "tape.wav");
    expect(text.status).toBe(415);
    const tone = fs.readFileSync(path.join(FIXTURES, "tone.mp3"));
    const overLimit = Buffer.concat([tone, Buffer.alloc(LIMIT_MB * 1024 * 1024 + 1 - tone.length)]);
    const big = await upload(mixer, code, overLimit, "long.mp3");
    expect(big.status).toBe(413);
    expect(big.body).toContain(`The file is larger than ${LIMIT_MB} MB.`);
    await sleepMs(200);
    expect(stored()).toEqual(before);
    expect(htmlText((await shopper.get(`/my-mixtapes/${code}`)).body)).not.toContain("Your tape");
  });

  it("the drop is sent with its tape: the email links to the order page, never to the file", async () => {
    const code = await placeOrder(shopper);
    expect((await upload(mixer, code, fs.readFileSync(path.join(FIXTURES, "tone.flac")), "mix.flac")).status).toBe(303);
    expect((await mixer.post("/mixer", { intent: "start-mixing", code })).status).toBe(303);
    expect(htmlText((await mixer.get(`/mixer/orders/${code}`)).body)).toContain("Send the drop");
    expect((await mixer.post("/mixer", { intent: "mark-sent", code, deliveryUrl: "", message: "Enjoy" })).status).toBe(303);
    let mail;
    for (let i = 0; i < 50 && !mail; i++, await sleepMs(200))
      mail = outboxMails(dataDir).find((m) => m.to === SHOPPER.email && m.subject === `Your tape is ready: ${code}`);
    expect(mail?.text).toContain(`/my-mixtapes/${code}`);
    expect(mail?.text).not.toContain("/tape");
  });

  it("deleting the account deletes the tapes' files", async () => {
    const leaving = new Client(server.url);
    const account = { username: "drop_leaving", email: "drop.leaving@example.com" };
    // A fresh account through the forms, signed in at once by its confirmation link.
    const { signUpOverHttp } = await import("./setup");
    const client = await signUpOverHttp(server.url, dataDir, account);
    for (const [k, v] of client.jar) leaving.jar.set(k, v);
    const code = await placeOrder(leaving);
    expect((await upload(mixer, code, fs.readFileSync(path.join(FIXTURES, "tone.wav")), "mix.wav")).status).toBe(303);
    const files = stored().filter((f) => f.startsWith(code));
    expect(files).toHaveLength(1);
    const gone = await leaving.post("/account", { intent: "delete-account", currentPassword: PASSWORD, confirm: "DELETE" });
    expect(gone.status).toBe(302);
    expect(stored().filter((f) => f.startsWith(code))).toEqual([]);
    // The order stays for the books; its tape row says the file is gone.
    expect(htmlText((await mixer.get(`/mixer/orders/${code}`)).body)).toContain("its file was deleted");
  });
});
