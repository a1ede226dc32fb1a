// Faults are inputs too: every route that reads a body, found in the build's route manifest (each
// route with an action) plus the server's own upload endpoints (tus, the tape's plain form, and the
// catalogue's multipart forms with real audio and images), is sent its body cut off mid-way,
// malformed, and slowly, signed out, as a shopper and as the mixer. Afterwards the same process
// answers /healthz, no answer (nor log line) was a 5xx or an error, nothing was written (no file
// in drops/ — a tape, a catalogue preview or image, whole or half — or in tus staging beyond
// uploads the client may resume, no table grew), and each slow body was answered and its
// connection closed by the server, except the mixer's own uploads, which keep their long timeout.
// Besides: the framework's .data URL of every resource route is refused without running the route
// (and the catalogue's files are no route of it), a refused upload is answered before its body is
// read, and tus creation-with-upload answers success. On PGlite and on PostgreSQL 15.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_PROVIDERS } from "~/domain/orders";
import { BODY_TIMEOUT_MS } from "../../server/bodies";
import { openPostgres, type SqlDriver } from "~/server/backend/sql/db.server";
import { postgresAvailable } from "../support/postgres";
import {
  formEndpoint,
  tusCreateEndpoint,
  tusPatchEndpoint,
  uploadFormEndpoint,
  webhookEndpoint,
  type Endpoint,
  type Malformed,
} from "./faults/bodies";
import { catalogueForms, makePictures, refusedToCatalogue, type Pictures } from "./faults/catalogue";
import { actionUrls, patternOf, resourceUrls, routeManifest } from "./faults/routes";
import { cutOff, sendWhole, trickle, type Answer, type Trickle } from "./faults/wire";
import { leftovers, logLines, rowCounts } from "./faults/state";
import { Client, openDataDir, signUpOverHttp, suitePostgres, suiteServer } from "./setup";
import { placeOrder, WEBHOOK_ENV } from "./webhook-senders";

const WAV = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/audio/tone.wav"));
const MIXER = { username: "faults_dj", email: "faults.dj@example.com" };
const SHOPPER = { username: "faults_shopper", email: "faults.shopper@example.com" };
/** The values of the routes' parameters: an order, a provider, a song ("new", one of its ids), a design, a background. */
const paramsOf = (code: string) => ({
  code: [code],
  provider: [...PAYMENT_PROVIDERS],
  id: ["new", "1", "design-1"],
  slot: ["1"],
});

type Backend = { env(): Record<string, string>; open(dataDir: string): Promise<SqlDriver> };

function faultSuite(name: string, backend: Backend) {
  describe(name, () => {
    const server = suiteServer("faults", {
      env: () => ({ ...backend.env(), ...WEBHOOK_ENV, MIXER_EMAILS: MIXER.email, DROP_MAX_MB: "2" }),
    });
    const { dataDir } = server;
    const staging = path.join(dataDir, "tus");
    const drops = path.join(dataDir, "drops");
    let shopper: Client;
    let mixer: Client;
    let code: string; // an open order with a tape
    let closed: string; // a cancelled order
    let media: string; // a catalogue file's URL, as the mixer's upload with JavaScript answered it
    let pictures: Pictures;
    const as = (who: Client | null): Record<string, string> => (who ? { cookie: who.cookieHeader() } : {});

    const counted = async () => {
      const db = await backend.open(dataDir);
      try {
        return await rowCounts(db);
      } finally {
        await db.close();
      }
    };
    /** A new tus upload of the wav for the open order, as the mixer; its path. */
    const created: string[] = [];
    const newUpload = async () => {
      const res = await fetch(`${server.url}/mixer/uploads`, {
        method: "POST",
        headers: {
          ...as(mixer),
          origin: server.url,
          "tus-resumable": "1.0.0",
          "upload-length": String(WAV.length),
          "upload-metadata": `code ${Buffer.from(code).toString("base64")},filename ${Buffer.from("mix.wav").toString("base64")}`,
        },
      });
      expect(res.status).toBe(201);
      created.push(res.headers.get("location")!);
      return res.headers.get("location")!;
    };

    beforeAll(async () => {
      shopper = await signUpOverHttp(server.url, dataDir, SHOPPER);
      mixer = await signUpOverHttp(server.url, dataDir, MIXER);
      code = await placeOrder(shopper);
      closed = await placeOrder(shopper, "7");
      expect((await mixer.post("/mixer", { intent: "cancel", code: closed, from: "received", reason: "" })).status).toBe(303);
      const form = new FormData();
      form.set("tape", new Blob([new Uint8Array(WAV)]), "mix.wav");
      const upload = await fetch(`${server.url}/mixer/orders/${code}`, {
        method: "POST",
        body: form,
        headers: { ...as(mixer), origin: server.url },
        redirect: "manual",
      });
      expect(upload.status).toBe(303);
      pictures = await makePictures();
      const file = new FormData();
      file.set("file", new Blob([new Uint8Array(pictures.small)]), "thumb.png");
      const stored = await fetch(`${server.url}/mixer/catalogue/media?kind=thumbnail`, {
        method: "POST",
        body: file,
        headers: { ...as(mixer), origin: server.url },
      });
      expect(stored.status).toBe(200);
      media = ((await stored.json()) as { url: string }).url;
    }, 300_000);

    it("the framework's .data URL of every resource route is refused without running the route; a page's still loads", async () => {
      const routes = await routeManifest(server.url);
      const urls = resourceUrls(routes, paramsOf(code));
      expect(urls).toEqual(
        expect.arrayContaining([
          `/my-mixtapes/${code}/tape`,
          `/mixer/orders/${code}/tape`,
          "/healthz",
          "/mixer/catalogue/media",
          "/mixer/catalogue/backgrounds/1",
        ]),
      );
      const from = server.output().length;
      for (const url of urls)
        for (const who of [null, shopper, mixer])
          for (const suffix of [".data", ".data?download", ".data?_routes=root"]) {
            const res = await fetch(server.url + url + suffix, { headers: as(who), redirect: "manual" });
            const body = await res.text();
            expect([url + suffix, res.status, res.headers.get("content-type")]).toEqual([
              url + suffix,
              404,
              "text/plain; charset=utf-8",
            ]);
            expect(body.length).toBeLessThan(100);
          }
      // None reached React Router: no request's log line counts a trip to the database.
      await new Promise((r) => setTimeout(r, 50));
      expect(logLines(server, from).filter((line) => line.res?.db)).toEqual([]);
      const page = await fetch(`${server.url}/my-mixtapes.data`, { headers: as(shopper) });
      expect([page.status, page.headers.get("content-type")]).toEqual([200, expect.stringMatching(/^text\/x-script\b/)]);
      // A resource route's action posted as data (the Logout form with JavaScript) still runs: its answer is no file.
      const session = new Client(server.url);
      expect((await session.logIn(SHOPPER.email)).status).toBe(302);
      const logout = await fetch(`${server.url}/logout.data`, {
        method: "POST",
        headers: { ...as(session), "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
        body: "",
        redirect: "manual",
      });
      expect([logout.status, await logout.text()]).toEqual([202, expect.stringContaining('"/auth"')]);
      // The catalogue's files are served by server/app.ts, not by a route of React Router: no route of the manifest
      // but the catch-all matches /media/…, so a file's .data URL is the 404 page's data (or only the root's, when
      // asked so), never the file.
      expect(routes.map((r) => patternOf(r, routes)).filter((p) => p.startsWith("/media"))).toEqual([]);
      const file = await fetch(server.url + media);
      expect([file.status, file.headers.get("content-type")]).toEqual([200, "image/webp"]);
      const webp = Buffer.from(await file.arrayBuffer()).toString("latin1");
      for (const [suffix, status] of [
        [".data", 404],
        [".data?download", 404],
        [".data?_routes=root", 200],
      ] as const) {
        const res = await fetch(server.url + media + suffix, { headers: as(mixer), redirect: "manual" });
        const body = await res.text();
        expect([media + suffix, res.status, res.headers.get("content-type")]).toEqual([
          media + suffix,
          status,
          expect.stringMatching(/^text\/x-script\b/),
        ]);
        expect(body).not.toContain(webp.slice(0, 64));
      }
    });

    it("every body-reading route, cut off, malformed and slow: no 5xx, the same process, nothing written", async () => {
      // /logout ends the session it is sent with: each of its faults brings a session of its own, made first.
      const sessions = { shopper: [] as Client[], mixer: [] as Client[] };
      for (const [who, account] of [
        ["shopper", SHOPPER],
        ["mixer", MIXER],
      ] as const)
        for (let i = 0; i < 5; i++) {
          const session = new Client(server.url);
          expect((await session.logIn(account.email)).status).toBe(302);
          sessions[who].push(session);
        }
      // Before: the rows and files, read with the server stopped (PGlite is one process's).
      await server.stop();
      const rowsBefore = await counted();
      const outboxBefore = leftovers(path.join(dataDir, "outbox"));
      const dropsBefore = leftovers(drops);
      await server.start();
      const { pid, port } = server;
      const from = server.output().length;

      type Sender = { label: string; headers(): Record<string, string>; mixer?: boolean };
      const nobody: Sender = { label: "nobody", headers: () => ({}) };
      const everyone: Sender[] = [
        nobody,
        { label: "shopper", headers: () => as(shopper) },
        { label: "mixer", headers: () => as(mixer), mixer: true },
      ];
      const leavers: Sender[] = [
        nobody,
        { label: "shopper", headers: () => as(sessions.shopper.pop()!) },
        { label: "mixer", headers: () => as(sessions.mixer.pop()!), mixer: true },
      ];
      const routes = await routeManifest(server.url);
      const urls = actionUrls(routes, paramsOf(code));
      expect(urls).toEqual(
        expect.arrayContaining([
          "/auth",
          "/",
          "/review",
          "/logout",
          `/mixer/orders/${code}`,
          "/webhooks/stripe",
          "/mixer/catalogue/new",
          "/mixer/catalogue/designs/new",
          "/mixer/catalogue/backgrounds/1",
          "/mixer/catalogue/media",
          "/mixer/shop",
        ]),
      );
      const patch = tusPatchEndpoint(server.url, newUpload, WAV);
      const endpoints: { endpoint: Endpoint; senders: Sender[]; upload?: boolean }[] = [
        ...urls.map((url) => {
          const provider = /^\/webhooks\/(\w+)$/.exec(url)?.[1] as (typeof PAYMENT_PROVIDERS)[number] | undefined;
          if (provider) return { endpoint: webhookEndpoint(provider), senders: [nobody] };
          return { endpoint: formEndpoint(url, server.url), senders: url === "/logout" ? leavers : everyone };
        }),
        { endpoint: uploadFormEndpoint(`/mixer/orders/${code}`, server.url, WAV), senders: everyone, upload: true },
        { endpoint: tusCreateEndpoint(server.url, code, WAV), senders: everyone, upload: true },
        { endpoint: patch, senders: everyone, upload: true },
        ...catalogueForms(server.url, WAV, pictures).map((endpoint) => ({ endpoint, senders: everyone, upload: true })),
      ];
      /** The request as this sender sends it; a PATCH of the mixer's goes to an upload of its own. */
      const requestOf = async (endpoint: Endpoint, sender: Sender, bad?: number): Promise<Malformed> => {
        if (endpoint === patch && sender.mixer) await patch.ready();
        return bad === undefined
          ? { name: "whole", request: endpoint.whole(sender.headers()) }
          : endpoint.malformed(sender.headers())[bad];
      };

      // Slow: every one at once, half the body and then a byte a second.
      await patch.ready();
      const slow: { label: string; trickle: Trickle; keeps: boolean; started: number }[] = [];
      for (const { endpoint, senders, upload } of endpoints)
        for (const sender of senders) {
          const { request } = await requestOf(endpoint, sender);
          slow.push({
            label: `${endpoint.name} as ${sender.label} (slow)`,
            trickle: trickle(port, request, { start: Math.floor(request.body.length / 2) }),
            keeps: !!upload && !!sender.mixer,
            started: Date.now(),
          });
        }

      // Cut off and malformed, one after another meanwhile. What goes wrong is gathered, and shown at once.
      const problems: string[] = [];
      const answered = (label: string, answer: Answer) => `${label}: ${answer.status} ${answer.text.slice(0, 160)}`;
      for (const { endpoint, senders, upload } of endpoints)
        for (const sender of senders) {
          const label = `${endpoint.name} as ${sender.label}`;
          await cutOff(port, (await requestOf(endpoint, sender)).request);
          for (let i = 0; i < endpoint.malformed({}).length; i++) {
            const bad = await requestOf(endpoint, sender, i);
            const answer = await sendWhole(port, bad.request, bad.contentLength);
            // A 201 created an upload (tus creates one for a body it does not take): its client's to delete.
            if (answer.status === 201) created.push(/\r\nlocation: *(\S+)/i.exec(answer.text)![1]);
            if (answer.status === null || answer.status >= 500) problems.push(answered(`${label}: ${bad.name}`, answer));
            // The mixer's upload reads the body: what it cannot read is the client's fault.
            else if (
              upload &&
              sender.mixer &&
              !(answer.status >= 400 && answer.status < 500) &&
              !refusedToCatalogue(endpoint, answer)
            )
              problems.push(answered(`${label}: ${bad.name}, not a 4xx`, answer));
            else if (sender.mixer && bad.says && !answer.text.includes(bad.says))
              problems.push(answered(`${label}: ${bad.name}, not "${bad.says}"`, answer));
          }
        }

      // Every slow body is answered (below 500) and its connection closed by the server, but the mixer's uploads.
      const others = slow.filter((s) => !s.keeps);
      await Promise.race([Promise.all(others.map((s) => s.trickle.answer)), new Promise((r) => setTimeout(r, 120_000))]);
      for (const s of others) {
        if (s.trickle.open()) problems.push(`${s.label}: still read by the server`);
        else {
          const answer = await s.trickle.answer;
          if (answer.status === null || answer.status >= 500 || !answer.closedByServer)
            problems.push(`${answered(s.label, answer)}; closed by the server: ${answer.closedByServer}`);
        }
      }
      const kept = slow.filter((s) => s.keeps);
      // Each kept body is looked at once every body's deadline of its own has passed (they began one after another).
      const lastStarted = Math.max(...kept.map((s) => s.started));
      await new Promise((r) => setTimeout(r, Math.max(0, lastStarted + BODY_TIMEOUT_MS + 1_000 - Date.now())));
      for (const s of kept)
        if (!s.trickle.open() || s.trickle.answered())
          problems.push(`${s.label}: not given the upload's time (answered: ${s.trickle.answered()}, open: ${s.trickle.open()})`);
      for (const s of kept) s.trickle.cut();
      await Promise.all(kept.map((s) => s.trickle.answer));

      // The same process answers; it logged no error and no 5xx.
      const health = await fetch(`${server.url}/healthz`).catch((error: Error) => ({ status: error.message }));
      if (health.status !== 200) problems.push(`/healthz: ${health.status}`);
      if (server.pid !== pid || server.child.exitCode !== null || server.child.signalCode !== null)
        problems.push("the process ended");
      await new Promise((r) => setTimeout(r, 200));
      for (const line of logLines(server, from))
        if (line.level >= 50 || (line.res?.status ?? 0) >= 500) problems.push(`log: ${JSON.stringify(line).slice(0, 400)}`);
      expect(problems).toEqual([]);

      // Nothing written: the uploads the client may resume are its to delete; then no file is left.
      for (const url of created) {
        const gone = await fetch(server.url + url, {
          method: "DELETE",
          headers: { ...as(mixer), origin: server.url, "tus-resumable": "1.0.0" },
        });
        expect([204, 404]).toContain(gone.status);
      }
      expect(leftovers(staging)).toEqual([]);
      // A store's cleanup may follow its answer (the client of a cut-off body is gone): a few seconds to settle.
      const stored = () => leftovers(drops).filter((entry) => entry !== ".partial");
      const storedBefore = dropsBefore.filter((entry) => entry !== ".partial");
      for (let i = 0; i < 50 && stored().length > storedBefore.length; i++) await new Promise((r) => setTimeout(r, 100));
      expect(stored()).toEqual(storedBefore);
      expect(storedBefore.filter((entry) => !entry.startsWith("catalogue/"))).toEqual([
        expect.stringMatching(new RegExp(`^${code}/[\\w-]+\\.wav$`)),
      ]);
      expect(leftovers(path.join(dataDir, "outbox"))).toEqual(outboxBefore);
      await server.stop();
      const rowsAfter = await counted();
      const grew = Object.keys(rowsAfter).filter((table) => rowsAfter[table] > (rowsBefore[table] ?? 0));
      expect(grew.map((table) => `${table}: ${rowsBefore[table]} → ${rowsAfter[table]}`)).toEqual([]);
      await server.start();
    }, 300_000);

    it("a refused upload is answered before its body is read, and its connection closes", async () => {
      // The cancelled order takes no tape: 409 after the first bytes, not after 1.5 MB; the rest is not read.
      const big = uploadFormEndpoint(`/mixer/orders/${closed}`, server.url, Buffer.concat([WAV, Buffer.alloc(1_500_000)]));
      const request = big.whole(as(mixer));
      const answer = await trickle(server.port, request, { start: 100_000, gapMs: 100 }).answer;
      expect([answer.status, answer.closedByServer, answer.sent < request.body.length]).toEqual([409, true, true]);
      expect(leftovers(drops).filter((entry) => entry.startsWith(closed))).toEqual([]);
    });

    it("tus creation-with-upload: the whole tape in the POST answers success, with where it was", async () => {
      const res = await fetch(`${server.url}/mixer/uploads`, {
        method: "POST",
        body: new Uint8Array(WAV),
        headers: {
          ...as(mixer),
          origin: server.url,
          "tus-resumable": "1.0.0",
          "upload-length": String(WAV.length),
          "upload-metadata": `code ${Buffer.from(code).toString("base64")},filename ${Buffer.from("again.wav").toString("base64")}`,
          "content-type": "application/offset+octet-stream",
        },
      });
      expect([res.status, res.headers.get("upload-offset"), await res.text()]).toEqual([
        201,
        String(WAV.length),
        expect.stringMatching(/^Tape uploaded: 0:0\d, 48 KB\.$/),
      ]);
      expect(res.headers.get("location")).toMatch(/^\/mixer\/uploads\/\w+$/);
      // The staged file goes once the answer is out.
      for (let i = 0; i < 50 && leftovers(staging).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(leftovers(staging)).toEqual([]);
    });
  });
}

faultSuite("faults on the embedded database (PGlite)", { env: () => ({}), open: (dataDir) => openDataDir(dataDir) });

describe.skipIf(!postgresAvailable())("PostgreSQL", () => {
  const postgres = suitePostgres("mixtape_faults");
  faultSuite("faults on PostgreSQL", {
    env: () => ({
      DATABASE_URL: postgres.url,
      SITE_URL: "http://127.0.0.1",
      SESSION_SECRET: "faults-test-secret-0123456789abcdef",
    }),
    open: () => openPostgres(postgres.url),
  });
});
