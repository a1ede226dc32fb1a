// The tape is the mixer's draft until "Send the drop", over HTTP on the production server (the
// disk store): the shopper sees and fetches nothing of an upload before it is sent (page, page
// data, list, file route, data export); "downloaded" is any byte served to the shopper after
// sending; and no page's data holds where the store keeps the file, nor (for the shopper) the
// mixer's own file name.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Client, htmlText, PASSWORD, suiteServer } from "./setup";
import { placeOrder } from "./webhook-senders";

const SHOPPER = { username: "draft_shopper", email: "draft.shopper@example.com" };
const MIXER = { username: "draft_dj", email: "draft.dj@example.com" };
const TONE = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/audio/tone.mp3"));
const sha = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");
const DATA = { accept: "*/*" };

describe("the tape is a draft until sent", () => {
  const server = suiteServer("drop-draft", { shoppers: [SHOPPER, MIXER], env: { MIXER_EMAILS: MIXER.email } });
  const { dataDir } = server;
  let shopper: Client;
  let mixer: Client;
  /** The order page's plain upload form, as a browser without JavaScript posts it. */
  const upload = async (code: string, name: string) => {
    const form = new FormData();
    form.set("tape", new Blob([new Uint8Array(TONE)]), name);
    const res = await fetch(`${server.url}/mixer/orders/${code}`, {
      method: "POST",
      body: form,
      headers: { cookie: mixer.cookieHeader(), accept: "text/html", origin: server.url },
      redirect: "manual",
    });
    expect(res.status).toBe(303);
  };
  const get = (client: Client, pathname: string, headers: Record<string, string> = {}, method = "GET") =>
    fetch(server.url + pathname, { method, headers: { cookie: client.cookieHeader(), ...headers }, redirect: "manual" });
  /** Start Mixing, then Send the drop, as the console's plain forms post them. */
  const sendDrop = async (code: string) => {
    expect((await mixer.post("/mixer", { intent: "start-mixing", code })).status).toBe(303);
    expect((await mixer.post("/mixer", { intent: "mark-sent", code, deliveryUrl: "", message: "" })).status).toBe(303);
  };
  /** What the mixer's Tape card says of the shopper's downloads. */
  const downloads = async (code: string) =>
    /Not downloaded yet|Downloaded \d+ times?/.exec(htmlText((await mixer.get(`/mixer/orders/${code}`)).body))?.[0];

  beforeAll(async () => {
    [shopper, mixer] = [new Client(server.url), new Client(server.url)];
    expect((await shopper.logIn(SHOPPER.email, PASSWORD)).status).toBe(302);
    expect((await mixer.logIn(MIXER.email, PASSWORD)).status).toBe(302);
  });

  it("the mixer plays the draft; its shopper gets nothing of it (page, data, list, file, export) until the drop is sent", async () => {
    const code = await placeOrder(shopper);
    await upload(code, "Final Mix (v3).mp3");
    // The mixer plays the draft, as the player asks (a range); it is not the shopper's download.
    const draft = await get(mixer, `/mixer/orders/${code}/tape`, { range: "bytes=0-99" });
    expect(draft.status).toBe(206);
    expect(sha(new Uint8Array(await draft.arrayBuffer()))).toBe(sha(TONE.subarray(0, 100)));

    const page = htmlText((await shopper.get(`/my-mixtapes/${code}`)).body);
    expect(page).toContain(code);
    expect(page).not.toContain("Your tape");
    expect(page).not.toContain(`/my-mixtapes/${code}/tape`);
    for (const data of [`/my-mixtapes/${code}.data`, "/my-mixtapes.data"]) {
      const { body } = await shopper.get(data, DATA);
      expect(body).toContain(code);
      expect(body).not.toMatch(/durationSeconds|Final Mix|\/tape/);
    }
    for (const ask of [{}, { range: "bytes=0-" }, { range: "bytes=1-" }] as Record<string, string>[]) {
      expect((await get(shopper, `/my-mixtapes/${code}/tape`, ask)).status).toBe(404);
      expect((await get(shopper, `/my-mixtapes/${code}/tape?download`, ask)).status).toBe(404);
    }
    const exported = JSON.parse((await shopper.get("/account/data")).body) as { orders: { code: string; tape: unknown }[] };
    expect(exported.orders.find((o) => o.code === code)?.tape).toBeNull();
    expect(await downloads(code)).toBe("Not downloaded yet");

    await sendDrop(code);
    const sent = htmlText((await shopper.get(`/my-mixtapes/${code}`)).body);
    expect(sent).toContain("Your tape");
    expect(sent).toContain(`href="/my-mixtapes/${code}/tape?download"`);
    const whole = await get(shopper, `/my-mixtapes/${code}/tape?download`);
    expect(whole.status).toBe(200);
    expect(sha(new Uint8Array(await whole.arrayBuffer()))).toBe(sha(TONE));
    const after = JSON.parse((await shopper.get("/account/data")).body) as { orders: { code: string; tape: unknown }[] };
    expect(after.orders.find((o) => o.code === code)?.tape).toMatchObject({ name: expect.stringMatching(` - ${code}.mp3`) });
  });

  it("downloaded is any byte served to the shopper: a read from byte 1 and the player's whole read count; a HEAD and the mixer's reads do not", async () => {
    const code = await placeOrder(shopper);
    await upload(code, "mix.mp3");
    await sendDrop(code);
    expect((await get(mixer, `/mixer/orders/${code}/tape?download`)).status).toBe(200);
    expect((await get(shopper, `/my-mixtapes/${code}/tape`, {}, "HEAD")).status).toBe(200);
    expect(await downloads(code)).toBe("Not downloaded yet");
    const rest = await get(shopper, `/my-mixtapes/${code}/tape`, { range: "bytes=1-" });
    expect(rest.status).toBe(206);
    expect(sha(new Uint8Array(await rest.arrayBuffer()))).toBe(sha(TONE.subarray(1)));
    expect(await downloads(code)).toBe("Downloaded 1 time");
    // A seek further in is the same listen; the player's whole read (no ?download) is one more.
    await (await get(shopper, `/my-mixtapes/${code}/tape`, { range: "bytes=5000-" })).arrayBuffer();
    expect(await downloads(code)).toBe("Downloaded 1 time");
    const played = await get(shopper, `/my-mixtapes/${code}/tape`);
    expect(played.status).toBe(200);
    await played.arrayBuffer();
    expect(await downloads(code)).toBe("Downloaded 2 times");
  });

  it("no page's data holds where the store keeps the tape; the mixer's file name is on the mixers' pages only", async () => {
    const code = await placeOrder(shopper);
    await upload(code, "DJ secret name.mp3");
    await sendDrop(code);
    const drops = path.join(dataDir, "drops", code);
    const [file] = fs.readdirSync(drops);
    const key = path.basename(file, ".mp3");
    for (const [client, pathname] of [
      [mixer, `/mixer/orders/${code}`],
      [mixer, `/mixer/orders/${code}.data`],
      [mixer, `/mixer?q=${code}`],
      [mixer, `/mixer.data?q=${code}`],
      [shopper, `/my-mixtapes/${code}`],
      [shopper, `/my-mixtapes/${code}.data`],
      [shopper, `/my-mixtapes`],
      [shopper, `/my-mixtapes.data`],
    ] as const) {
      const { status, body } = await client.get(pathname, pathname.includes(".data") ? DATA : undefined);
      expect(status, pathname).toBe(200);
      expect(body, pathname).toContain(code);
      expect(body, pathname).not.toContain(key);
      if (client === shopper) expect(body, pathname).not.toContain("DJ secret name");
    }
    expect((await mixer.get(`/mixer/orders/${code}.data`, DATA)).body).toContain("DJ secret name.mp3");
    expect((await mixer.get(`/mixer.data?q=${code}`, DATA)).body).toContain("DJ secret name.mp3");
  });
});
