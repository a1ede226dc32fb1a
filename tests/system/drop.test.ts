// The drop, over HTTP on the production server (the disk store): the mixer's plain-form
// upload (no JavaScript) and the resumable one (tus, as tus-js-client speaks it), checked by
// content and stopped at the limit with nothing left behind; the shopper's player (ranges) and
// download; nobody else's; the drop sent; the account's deletion erasing the files.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { outboxMails } from "../support/outbox";
import { Client, htmlText, PASSWORD, sleepMs, suiteServer } from "./setup";
import { placeOrder } from "./webhook-senders";

const SHOPPER = { username: "drop_shopper", email: "drop.shopper@example.com" };
const OTHER = { username: "drop_other", email: "drop.other@example.com" };
const MIXER = { username: "drop_dj", email: "drop.dj@example.com" };
const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/audio");
const LIMIT_MB = 1;
const sha = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");

describe("the drop", () => {
  const server = suiteServer("drop", {
    shoppers: [SHOPPER, OTHER, MIXER],
    env: { MIXER_EMAILS: MIXER.email, DROP_MAX_MB: String(LIMIT_MB) },
  });
  const { dataDir } = server;
  const drops = path.join(dataDir, "drops");
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
  /** One tus request (tus-js-client's headers), signed in as client or signed out. */
  const tus = (
    client: Client | null,
    method: string,
    pathname: string,
    headers: Record<string, string> = {},
    body?: Uint8Array,
  ) =>
    fetch(server.url + pathname, {
      method,
      headers: { ...(client ? { cookie: client.cookieHeader() } : {}), origin: server.url, "tus-resumable": "1.0.0", ...headers },
      body: body && new Uint8Array(body),
      redirect: "manual",
    });
  const b64 = (text: string) => Buffer.from(text).toString("base64");
  /** POST /mixer/uploads: a new upload of length bytes for the order; its URL, or the refusal. */
  const createUpload = async (client: Client | null, code: string, length: number, filename = "mix.wav") => {
    const res = await tus(client, "POST", "/mixer/uploads", {
      "upload-length": String(length),
      "upload-metadata": `code ${b64(code)},filename ${b64(filename)}`,
    });
    return { status: res.status, url: res.headers.get("location"), body: await res.text() };
  };
  const patch = (client: Client, url: string, offset: number, bytes: Uint8Array) =>
    tus(client, "PATCH", url, { "upload-offset": String(offset), "content-type": "application/offset+octet-stream" }, bytes);
  const staged = () => (fs.existsSync(path.join(dataDir, "tus")) ? fs.readdirSync(path.join(dataDir, "tus")) : []);

  const get = (client: Client | null, pathname: string, headers: Record<string, string> = {}) =>
    fetch(server.url + pathname, {
      headers: { ...(client ? { cookie: client.cookieHeader() } : {}), ...headers },
      redirect: "manual",
    });

  beforeAll(async () => {
    [shopper, other, mixer] = [new Client(server.url), new Client(server.url), new Client(server.url)];
    for (const [client, account] of [
      [shopper, SHOPPER],
      [other, OTHER],
      [mixer, MIXER],
    ] as const)
      expect((await client.logIn(account.email, PASSWORD)).status).toBe(302);
  });

  it("the mixer uploads a tape without JavaScript and sends the drop; the shopper plays it with ranges and downloads it whole; nobody else", async () => {
    const code = await placeOrder(shopper);
    const tone = fs.readFileSync(path.join(FIXTURES, "tone.mp3"));
    const done = await upload(mixer, code, tone, "Final Mix (v3).mp3");
    expect([done.status, done.location]).toEqual([303, `/mixer/orders/${code}`]);
    const card = htmlText((await mixer.get(`/mixer/orders/${code}`)).body);
    expect(card).toContain("Final Mix (v3).mp3");
    expect(card).toContain("Not downloaded yet");
    // The tape is the mixer's draft until the drop is sent (tests/system/drop-draft.test.ts).
    expect((await mixer.post("/mixer", { intent: "start-mixing", code })).status).toBe(303);
    expect((await mixer.post("/mixer", { intent: "mark-sent", code, deliveryUrl: "", message: "" })).status).toBe(303);
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
    // The seek served bytes (downloaded), the download from byte 0 is one more.
    expect(htmlText((await mixer.get(`/mixer/orders/${code}`)).body)).toContain("Downloaded 2 times");

    // Another shopper, a signed-out visitor, a shopper at the mixer's address: no bytes.
    expect((await get(other, `/my-mixtapes/${code}/tape`)).status).toBe(404);
    const anonymous = await get(null, `/my-mixtapes/${code}/tape`);
    expect([anonymous.status, anonymous.headers.get("location")]).toEqual([302, "/auth"]);
    expect((await get(shopper, `/mixer/orders/${code}/tape`)).status).toBe(404);
    expect((await get(shopper, `/my-mixtapes/ZZZZZZZZ/tape`)).status).toBe(404);
    // Sent and downloaded: a new upload is the tape's next version, and the shopper gets a message.
    const late = await upload(mixer, code, fs.readFileSync(path.join(FIXTURES, "tone.ogg")), "v4.ogg");
    expect(late.status).toBe(303);
    const corrected = htmlText((await mixer.get(`/mixer/orders/${code}`)).body);
    expect(corrected).toContain("v4.ogg");
    expect(corrected).toContain("Version 2");
    expect(corrected).toContain("Not downloaded yet");
    expect(htmlText((await shopper.get(`/my-mixtapes/${code}`)).body)).toContain("I uploaded a corrected version of your tape");
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

  it("with JavaScript: a tus upload cut off halfway resumes where the server stopped, and the tape is the file", async () => {
    const code = await placeOrder(shopper);
    const wav = fs.readFileSync(path.join(FIXTURES, "tone.wav"));
    const created = await createUpload(mixer, code, wav.length, "Live at Home.wav");
    expect(created.status).toBe(201);
    expect(created.url).toMatch(/^\/mixer\/uploads\/[0-9a-f]+$/);
    const url = created.url!;
    const stagedFile = path.join(dataDir, "tus", url.split("/").pop()!);

    // The first PATCH promises every byte, sends 20 kB, and the connection drops.
    const sent = 20_000;
    const cut = await new Promise<void>((resolve, reject) => {
      const req = http.request(server.url + url, {
        method: "PATCH",
        headers: {
          cookie: mixer.cookieHeader(),
          origin: server.url,
          "tus-resumable": "1.0.0",
          "upload-offset": "0",
          "content-type": "application/offset+octet-stream",
          "content-length": String(wav.length),
        },
      });
      req.on("error", () => resolve());
      req.on("response", () => reject(new Error("the server answered a request it had not read whole")));
      req.write(wav.subarray(0, sent), async () => {
        for (let i = 0; i < 100 && !(fs.existsSync(stagedFile) && fs.statSync(stagedFile).size >= sent); i++) await sleepMs(50);
        req.destroy();
        resolve();
      });
    });
    void cut;

    // HEAD reads how far the server got (tus-js-client does this after a reload or a dropped connection).
    let offset = -1;
    for (let i = 0; i < 100 && offset !== sent; i++, await sleepMs(50)) {
      const head = await tus(mixer, "HEAD", url);
      expect(head.status).toBe(200);
      expect(head.headers.get("upload-length")).toBe(String(wav.length));
      offset = Number(head.headers.get("upload-offset"));
    }
    expect(offset).toBe(sent);
    // A PATCH from the wrong offset changes nothing (409); from the right one, the rest finishes the upload.
    expect((await patch(mixer, url, 0, wav)).status).toBe(409);
    const rest = await patch(mixer, url, offset, wav.subarray(offset));
    expect(rest.status).toBe(200);
    expect(await rest.text()).toMatch(/^Tape uploaded: 0:0\d, 48 KB\.$/);
    expect(staged()).toEqual([]);

    const card = htmlText((await mixer.get(`/mixer/orders/${code}`)).body);
    expect(card).toContain("Live at Home.wav");
    const whole = await get(mixer, `/mixer/orders/${code}/tape?download`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/wav");
    expect(sha(new Uint8Array(await whole.arrayBuffer()))).toBe(sha(wav));
    // Finished: the upload's URL is gone.
    expect((await tus(mixer, "HEAD", url)).status).toBe(404);
  });

  it("tus is for mixers: a shopper, a signed-out visitor and another site are refused, and nobody resumes another's upload", async () => {
    const code = await placeOrder(shopper);
    const shopperTry = await createUpload(shopper, code, 1000);
    expect(shopperTry.status).toBe(404);
    const anonymous = await createUpload(null, code, 1000);
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toContain("Sign in as the shop's mixer to upload a tape.");
    const mine = await createUpload(mixer, code, 1000);
    expect(mine.status).toBe(201);
    expect((await tus(shopper, "HEAD", mine.url!)).status).toBe(404);
    expect((await tus(null, "HEAD", mine.url!)).status).toBe(403);
    expect((await patch(shopper, mine.url!, 0, new Uint8Array(1000))).status).toBe(404);
    expect((await tus(other, "DELETE", mine.url!)).status).toBe(404);
    // The Origin check of every other POST: another site's page cannot upload with the mixer's cookie.
    const crossSite = await tus(mixer, "POST", "/mixer/uploads", { origin: "https://evil.example", "upload-length": "10" });
    expect(crossSite.status).toBe(403);
    // Not a method of tus.
    expect((await tus(mixer, "PUT", mine.url!)).status).toBe(405);
    // An order that does not exist.
    expect((await createUpload(mixer, "ZZZZZZZZ", 1000)).status).toBe(404);
    // Cancel: DELETE removes the staged bytes.
    expect((await tus(mixer, "DELETE", mine.url!)).status).toBe(204);
    expect(staged()).toEqual([]);
  });

  it("tus answers through its resource route as it speaks: OPTIONS, 412 without its version, HEAD's headers without a body", async () => {
    const options = await tus(null, "OPTIONS", "/mixer/uploads", { "tus-resumable": "" });
    // Signed out is refused before tus (its discovery included): the route reads the session first.
    expect([options.status, options.headers.get("cache-control")]).toEqual([403, "no-store"]);
    const discovery = await tus(mixer, "OPTIONS", "/mixer/uploads");
    expect([discovery.status, discovery.headers.get("tus-version"), discovery.headers.get("tus-max-size")]).toEqual([
      204,
      "1.0.0",
      String(LIMIT_MB * 1024 * 1024),
    ]);
    expect(discovery.headers.get("access-control-allow-origin")).toBeNull();
    const code = await placeOrder(shopper);
    const created = await createUpload(mixer, code, 1000);
    const versionless = await fetch(server.url + created.url!, {
      method: "HEAD",
      headers: { cookie: mixer.cookieHeader(), origin: server.url },
    });
    expect(versionless.status).toBe(412);
    const head = await tus(mixer, "HEAD", created.url!);
    expect([head.status, head.headers.get("upload-offset"), head.headers.get("cache-control"), await head.text()]).toEqual([
      200,
      "0",
      "private, no-store",
      "",
    ]);
    expect((await tus(mixer, "DELETE", created.url!)).status).toBe(204);
    // Page data is not tus's: refused before the route runs.
    expect((await tus(mixer, "HEAD", `${created.url!}.data`)).status).toBe(404);
  });

  it("a tus upload that is not audio, or longer than DROP_MAX_MB, is refused with its message and keeps nothing", async () => {
    const code = await placeOrder(shopper);
    const before = stored();
    const text = fs.readFileSync(path.join(FIXTURES, "notes.txt"));
    const created = await createUpload(mixer, code, text.length, "tape.mp3");
    expect(created.status).toBe(201);
    const refused = await patch(mixer, created.url!, 0, text);
    expect(refused.status).toBe(415);
    expect(await refused.text()).toBe("This file is not audio (MP3, M4A, OGG, FLAC or WAV).");
    expect(staged()).toEqual([]);

    // One byte over the limit: refused before any byte is read.
    const big = await createUpload(mixer, code, LIMIT_MB * 1024 * 1024 + 1);
    expect(big.status).toBe(413);
    expect(big.body).toBe(`The file is larger than ${LIMIT_MB} MB.`);
    // A body longer than the upload's length: tus stops reading at the length.
    const short = await createUpload(mixer, code, 100);
    const over = await patch(mixer, short.url!, 0, new Uint8Array(200));
    expect(over.status).toBe(413);
    expect((await tus(mixer, "DELETE", short.url!)).status).toBe(204);
    expect(staged()).toEqual([]);
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

  // Last: it restarts the server.
  it("a tus upload abandoned for a day is removed by the tape chores' sweep", async () => {
    const code = await placeOrder(shopper);
    const wav = fs.readFileSync(path.join(FIXTURES, "tone.wav"));
    const created = await createUpload(mixer, code, wav.length);
    expect((await patch(mixer, created.url!, 0, wav.subarray(0, 1000))).status).toBe(204);
    const id = created.url!.split("/").pop()!;
    expect(staged().sort()).toEqual([id, `${id}.json`]);
    // A day and a minute ago, as tus wrote it when the upload was created.
    await server.stop();
    const info = path.join(dataDir, "tus", `${id}.json`);
    const upload = JSON.parse(fs.readFileSync(info, "utf8"));
    fs.writeFileSync(
      info,
      JSON.stringify({ ...upload, creation_date: new Date(Date.now() - 24 * 3600_000 - 60_000).toISOString() }),
    );
    // The first sweep runs a second after start-up, then hourly.
    await server.start();
    for (let i = 0; i < 100 && staged().length > 0; i++) await sleepMs(100);
    expect(staged()).toEqual([]);
    expect((await tus(mixer, "HEAD", created.url!)).status).toBe(404);
  });
});
