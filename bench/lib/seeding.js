// Seeding shoppers and orders through the real forms, and many orders straight into a data dir.
import crypto from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import { PASSWORD, sleep, now } from "./common.js";
import { Jar, newAgent, expectStatus } from "./http.js";
import { dataDirLocked } from "./servers.js";

export function newIdentity(prefix) {
  const id = crypto.randomBytes(4).toString("hex");
  return { username: `${prefix}_${id}`, email: `${prefix}.${id}@example.com`, password: PASSWORD };
}

export async function readMail(dataDir, to, timeoutMs = 20_000) {
  const outbox = path.join(dataDir, "outbox");
  const until = now() + timeoutMs;
  while (now() < until) {
    const files = (await fsp.readdir(outbox).catch(() => []))
      .filter((f) => f.endsWith(".json"))
      .sort()
      .reverse();
    for (const f of files) {
      let mail;
      try {
        mail = JSON.parse(await fsp.readFile(path.join(outbox, f), "utf8"));
      } catch {
        continue; // still being written: read it on the next pass
      }
      if (mail.to === to) return mail;
    }
    await sleep(50);
  }
  throw new Error(`no mail to ${to} in ${outbox}`);
}

/** Signs a shopper up through /auth, opens the confirmation link, lands on /. */
export async function signUpShopper(base, dataDir, prefix, agent, identity = newIdentity(prefix)) {
  const s = identity;
  const jar = new Jar();
  const res = await expectStatus(
    base,
    {
      method: "POST",
      path: "/auth?mode=signup",
      form: { mode: "signup", username: s.username, email: s.email, password: s.password },
      jar,
      agent,
    },
    [302, 303],
  );
  if (!String(res.headers.location).startsWith("/auth")) throw new Error(`sign-up redirected to ${res.headers.location}`);
  const mail = await readMail(dataDir, s.email);
  const link = mail.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no link in the mail to ${s.email}`);
  const u = new URL(link);
  const confirmed = await expectStatus(base, { path: u.pathname + u.search, jar, agent }, [302, 303]);
  if (confirmed.headers.location !== "/") throw new Error(`confirmation redirected to ${confirmed.headers.location}`);
  const home = await expectStatus(base, { path: "/", jar, agent }, 200);
  if (!home.body.includes(s.username)) throw new Error(`/ after confirming does not show ${s.username}`);
  if (!jar.get("mixtape-auth") || !jar.get("mixtape-deck")) throw new Error(`missing cookies after sign-up: ${jar.header()}`);
  return { ...s, jar };
}

/** POST / intent=... (a plain form post, no JavaScript): answers 303. */
export async function deckIntent(base, shopper, form, agent) {
  return expectStatus(base, { method: "POST", path: "/", form, jar: shopper.jar, agent }, 303);
}

export const countMatches = (html, re) => (html.match(re) ?? []).length;

/** The order code shown in the review dialog (server-rendered). */
export function orderCodeIn(html) {
  return /data-testid="order-code"[^>]*>([A-Z0-9]{8})</.exec(html)?.[1] ?? null;
}

/** The deck inside a mixtape-deck cookie value (signed, not encrypted). */
export function decodeDeckCookie(value) {
  const v = decodeURIComponent(value);
  const dot = v.lastIndexOf(".");
  const json = decodeURIComponent(escape(Buffer.from(v.slice(0, dot), "base64").toString("latin1")));
  return JSON.parse(json).deck;
}

/** Where a successful transmit of `code` redirects: home, showing the placed order. */
export const transmittedTo = (location, code) => location === "/" || location === `/?placed=${code}`;

/** One realistic order: add a track, generate a code, read it, transmit it. */
export async function placeOrder(base, shopper, songId, agent) {
  await deckIntent(base, shopper, { intent: "add", songId: String(songId) }, agent);
  const gen = await expectStatus(
    base,
    { method: "POST", path: "/review", form: { intent: "generate-code" }, jar: shopper.jar, agent },
    303,
  );
  const review = await expectStatus(base, { path: gen.headers.location, jar: shopper.jar, agent }, 200);
  const code = orderCodeIn(review.body);
  if (!code) throw new Error("no order code on /review");
  const sent = await expectStatus(
    base,
    { method: "POST", path: "/review", form: { intent: "transmit", code }, jar: shopper.jar, agent },
    303,
  );
  if (!transmittedTo(sent.headers.location, code)) throw new Error(`transmit redirected to ${sent.headers.location}`);
  return code;
}

// ---- Many orders: the mixer's console and a shopper with 500 ----------------------------

/** The mixer of the many-orders scenarios: its email goes into MIXER_EMAILS. */
export const BENCH_MIXER = { username: "bench_mixer", email: "bench.mixer@example.com", password: PASSWORD };

/**
 * On a first boot (MIXER_EMAILS naming `mixer`): the mixer, the shopper who will have
 * many orders, and a shopper who places one real order that the seeded ones copy.
 */
export async function seedManyAccounts(base, dataDir, mixer = BENCH_MIXER) {
  const agent = newAgent(4);
  const m = await signUpShopper(base, dataDir, "mixer", agent, { ...mixer });
  const many = await signUpShopper(base, dataDir, "many", agent);
  const bulk = await signUpShopper(base, dataDir, "bulk", agent);
  for (let id = 1; id <= 5; id++) await deckIntent(base, bulk, { intent: "add", songId: String(id * 3) }, agent);
  const template = await placeOrder(base, bulk, 20, agent);
  agent.destroy();
  return { mixer: m, many, bulk, template };
}

/**
 * `total` orders written straight into a stopped server's database (the newest `many` the
 * `many` shopper's, the rest the `bulk` shopper's), each a copy of the template order's
 * tracks, options and note, 7 minutes apart, a fifth sent, a fifth mixing, a third paid (a ledger row each).
 * No order emails are queued for them (triggers off for this session), so the server's
 * email worker does not send thousands of mails during the measurements. Resolves with
 * the number of orders in the database.
 */
export async function seedManyOrders(dataDir, { many, bulk, template }, { total, many: manyCount }) {
  if (dataDirLocked(dataDir)) throw new Error(`a process still holds ${dataDir}/mixtape.lock: cannot seed the database safely`);
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(path.join(dataDir, "pgdata"));
  await db.waitReady;
  try {
    const idOf = async (email) => {
      const { rows } = await db.query(`select id from auth.users where lower(email) = lower($1)`, [email]);
      if (!rows[0]) throw new Error(`no user ${email} in the database`);
      return rows[0].id;
    };
    const manyId = await idOf(many.email);
    const bulkId = await idOf(bulk.email);
    const { rows } = await db.query(`select tracks, toggles, note, design_id from public.mixtapes where code = $1`, [template]);
    if (!rows[0]) throw new Error(`the template order ${template} is not in the database`);
    const t = rows[0];
    await db.exec("set session_replication_role = replica");
    await db.query(
      `insert into public.mixtapes (user_id, code, tracks, toggles, note, design_id, created_at, status)
       select case when i <= $1 then $2::uuid else $3::uuid end,
              'S' || upper(lpad(to_hex(i), 7, '0')),
              $4::jsonb, $5::jsonb, $6, $7,
              now() - make_interval(mins => i * 7),
              case i % 5 when 0 then 'sent' when 1 then 'mixing' else 'received' end
         from generate_series(1, $8::int) as i`,
      [manyCount, manyId, bulkId, JSON.stringify(t.tracks), JSON.stringify(t.toggles), t.note, t.design_id, total],
    );
    // A third paid: one ledger row each, $10 to $20, an hour after it was placed.
    await db.query(
      `insert into public.payment_events (provider, event_id, kind, code, amount, currency, reference, order_id, received_at)
       select 'checkout', 'seed-' || m.id, 'payment', m.code, (1000 + (m.id * 53) % 1000)::int, 'USD', 'seed-' || m.id, m.id,
              m.created_at + interval '1 hour'
         from public.mixtapes m
        where m.code ~ '^S[0-9A-F]{7}$' and ('x' || lpad(substr(m.code, 2), 8, '0'))::bit(32)::int % 3 = 0`,
    );
    // The queue's tallies are kept by triggers, off for this session: counted once now.
    await db.exec(
      "set session_replication_role = origin; select public.queue_recount(); analyze public.mixtapes; analyze public.payment_events;",
    );
    const { rows: n } = await db.query(`select count(*)::int as n from public.mixtapes`);
    return n[0].n;
  } finally {
    await db.close();
  }
}
