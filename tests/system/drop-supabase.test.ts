// The drop in Supabase mode (DROP_STORAGE=supabase) through the production server, against the
// HTTP fake's Auth, PostgREST and Storage: the mixer's plain-form upload lands in the private
// bucket `drops`, the shopper's player and download are redirects to signed URLs of at most 15
// minutes that give the same bytes (a range too), and nobody else gets one.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { Client, htmlText, suiteServer, suiteSupabaseFake } from "./setup";
import { placeOrder } from "./webhook-senders";

const MIXER = { username: "drop_sb_dj", email: "drop.sb.dj@example.com" };
const sha = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");
// On Supabase the mixers are rows the owner inserts (docs/backends.md); the SQL modes sync MIXER_EMAILS.
const supabase = suiteSupabaseFake({ seed: (db) => db.query("insert into public.mixers (email) values ($1)", [MIXER.email]) });
const server = suiteServer("drop-supabase", {
  env: ({ port }) => ({
    ...supabase.env(port),
    SUPABASE_SERVICE_ROLE_KEY: supabase.fake.serviceKey,
    SESSION_SECRET: "supabase-drop-test-secret-0123456789",
    MIXER_EMAILS: MIXER.email,
    DROP_STORAGE: "supabase",
  }),
});

/** An account through the sign-up form, signed in by its confirmation link. */
async function signUp(account: { username: string; email: string }) {
  const client = new Client(server.url);
  const res = await client.post("/auth?mode=signup", { mode: "signup", ...account, password: "correct-horse-42" });
  expect(res.status).toBe(302);
  const link = new URL(supabase.fake.mailbox.find((m) => m.to === account.email)!.link);
  expect((await client.get(link.pathname + link.search)).status).toBe(302);
  return client;
}

const get = (client: Client, pathname: string) =>
  fetch(server.url + pathname, { headers: { cookie: client.cookieHeader() }, redirect: "manual" });

it("a tape uploaded without JavaScript is in the private bucket; its shopper plays and downloads it by signed URLs; nobody else", async () => {
  const { fake } = supabase;
  const [shopper, other, mixer] = [
    await signUp({ username: "drop_sb_shopper", email: "drop.sb.shopper@example.com" }),
    await signUp({ username: "drop_sb_other", email: "drop.sb.other@example.com" }),
    await signUp(MIXER),
  ];
  const code = await placeOrder(shopper);
  const tone = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/audio/tone.mp3"));
  const form = new FormData();
  form.set("tape", new Blob([new Uint8Array(tone)]), "Final.mp3");
  const upload = await fetch(`${server.url}/mixer/orders/${code}`, {
    method: "POST",
    body: form,
    headers: { cookie: mixer.cookieHeader(), accept: "text/html", origin: server.url },
    redirect: "manual",
  });
  expect(upload.status).toBe(303);
  const objects = [...fake.storage.buckets.get("drops")!.objects.keys()];
  expect(objects).toHaveLength(1);
  expect(objects[0]).toMatch(new RegExp(`^${code}/[0-9a-f-]{36}\\.mp3$`));
  // A draft until the drop is sent: the mixer gets a URL to play it, the shopper nothing.
  expect((await get(mixer, `/mixer/orders/${code}/tape`)).status).toBe(302);
  expect(htmlText((await shopper.get(`/my-mixtapes/${code}`)).body)).not.toContain("Your tape");
  expect((await get(shopper, `/my-mixtapes/${code}/tape`)).status).toBe(404);
  const grants = fake.storage.grants.length;
  expect((await get(shopper, `/my-mixtapes/${code}/tape?download`)).status).toBe(404);
  expect(fake.storage.grants.length).toBe(grants);
  expect((await mixer.post("/mixer", { intent: "start-mixing", code })).status).toBe(303);
  expect((await mixer.post("/mixer", { intent: "mark-sent", code, deliveryUrl: "", message: "" })).status).toBe(303);
  expect(htmlText((await shopper.get(`/my-mixtapes/${code}`)).body)).toContain("Your tape");
  const downloads = async () => htmlText((await mixer.get(`/mixer/orders/${code}`)).body);
  expect(await downloads()).toContain("Not downloaded yet");

  const download = await get(shopper, `/my-mixtapes/${code}/tape?download`);
  expect(download.status).toBe(302);
  const signed = new URL(download.headers.get("location")!);
  expect(signed.origin).toBe(fake.url);
  expect(fake.storage.grants.at(-1)!.expiresIn).toBeLessThanOrEqual(15 * 60);
  const file = await fetch(signed);
  expect(file.status).toBe(200);
  expect(sha(new Uint8Array(await file.arrayBuffer()))).toBe(sha(tone));
  // The URL went to the shopper: downloaded.
  expect(await downloads()).toContain("Downloaded 1 time");

  const player = await get(shopper, `/my-mixtapes/${code}/tape`);
  expect(player.status).toBe(302);
  const part = await fetch(player.headers.get("location")!, { headers: { range: "bytes=10-19" } });
  expect(part.status).toBe(206);
  expect(Buffer.from(await part.arrayBuffer())).toEqual(tone.subarray(10, 20));

  // Another shopper, and a tampered link: no URL, no bytes.
  expect((await get(other, `/my-mixtapes/${code}/tape?download`)).status).toBe(404);
  const tampered = new URL(signed);
  tampered.searchParams.set("token", `${signed.searchParams.get("token")!.slice(0, -4)}AAAA`);
  const refused = await fetch(tampered);
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(Buffer.from(await refused.arrayBuffer()).includes(tone.subarray(0, 64))).toBe(false);
});
