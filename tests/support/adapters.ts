// The three adapters under one harness, so that the contract cases are written once:
// pglite (embedded adapter on a clone of one migrated in-memory PGlite), postgres
// (embedded adapter on a fresh database of a throwaway PostgreSQL 15 cluster), and
// supabase (the Supabase adapter against the HTTP fake of Auth + PostgREST, whose
// database is a clone of the same migrated in-memory PGlite).
import fs from "node:fs";
import path from "node:path";
import type { Backend } from "~/server/backend/port.server";
import type { SqlDriver } from "~/server/backend/sql/db.server";
import { createSqlBackend } from "~/server/backend/sql/index.server";
import { createMailer, type Mail } from "~/server/platform/mailer.server";
import { createSupabaseBackend } from "~/server/backend/supabase/index.server";
import { TEST_DATA_DIR } from "./env";
import { bootPglite, type PgliteTemplate } from "./pglite";
import { bootPostgres, postgresAvailable, type PostgresTemplate } from "./postgres";
import { startSupabaseFake, type SupabaseFake } from "./supabase-fake";

export type AdapterName = "pglite" | "postgres" | "supabase";

export type StoredOrder = {
  user_id: string;
  code: string;
  /** Raw JSON text for tracks and toggles, stored as-is (may be malformed). */
  tracksJson: string;
  togglesJson: string;
  note: string;
  design_id: string | null;
};

export type AdapterCtx = {
  name: AdapterName;
  backend: Backend;
  /** The site's own origin, sent as the email redirect. */
  origin: string;
  /** Every email sent to this address so far (subject and the first link in it). */
  mailsTo(email: string): Promise<{ subject: string; link: URL | null }[]>;
  /** The superuser SQL driver of the adapter's database (on Supabase: the fake's). */
  sql: SqlDriver;
  /** The Supabase fake (supabase only). */
  fake: SupabaseFake | null;
  /** Whether an account exists for the address, seen by the service itself. */
  accountExists(email: string): Promise<boolean>;
  /** Makes every outstanding email link of this address expired, behind the app's back. */
  expireLinks(email: string): Promise<void>;
  /** Every stored order with that code, whoever owns it (bypassing RLS). */
  ordersWithCode(code: string): Promise<Record<string, unknown>[]>;
  /** Stores an order as-is, bypassing the app and the policies. */
  seedOrder(order: StoredOrder): Promise<void>;
  /** Names these addresses the mixers (MIXER_EMAILS in the SQL modes, the project's table on Supabase). */
  makeMixers(emails: string[]): Promise<void>;
  /** Makes the database (or the service) unreachable, and back. Null when not possible. */
  outage: { begin(): Promise<void>; end(): Promise<void> } | null;
  close(): Promise<void>;
};

export type AdapterHarness = {
  name: AdapterName;
  /** False when the adapter cannot run here (postgres without binaries, outside CI). */
  available: boolean;
  boot(): Promise<void>;
  fresh(): Promise<AdapterCtx>;
  shutdown(): Promise<void>;
};

const ORIGIN = "http://localhost";
const SHOP = "Underground Mixtape Shop";
let ctxSeq = 0;

/** The test's reads and writes behind the app's back, as the database's superuser. */
function superuser(db: SqlDriver) {
  return {
    sql: db,
    async accountExists(email: string) {
      const { rows } = await db.query(`select 1 from auth.users where lower(email) = lower($1)`, [email]);
      return rows.length > 0;
    },
    async ordersWithCode(code: string) {
      return (await db.query(`select m.*, public.order_money(m) as money from public.mixtapes m where m.code = $1`, [code])).rows;
    },
    async seedOrder(o: StoredOrder) {
      await db.query(
        `insert into public.mixtapes (user_id, code, tracks, toggles, note, design_id) values ($1, $2, $3::jsonb, $4::jsonb, $5, $6)`,
        [o.user_id, o.code, o.tracksJson, o.togglesJson, o.note, o.design_id],
      );
    },
  };
}

/** The real file mailer writing into a per-test outbox, and a reader of the mails to one address, oldest first. */
function fileMailer(name: string) {
  const dir = path.join(TEST_DATA_DIR, `${name}-${process.pid}-${++ctxSeq}`);
  fs.mkdirSync(dir, { recursive: true });
  const mailer = createMailer({ from: "Mixtape <no-reply@mixtape.local>", dataDir: dir, log: () => {} });
  const outbox = path.join(dir, "outbox");
  return {
    mailer,
    sentTo(email: string) {
      if (!fs.existsSync(outbox)) return [];
      const files = fs.readdirSync(outbox).filter((f) => f.endsWith(".json"));
      const mails = files
        .map((f) => ({
          file: f,
          mtime: fs.statSync(path.join(outbox, f)).mtimeMs,
          mail: JSON.parse(fs.readFileSync(path.join(outbox, f), "utf8")) as Mail,
        }))
        .sort((a, b) => a.mtime - b.mtime || a.file.localeCompare(b.file))
        .filter((m) => m.mail.to === email);
      return mails.map(({ mail, mtime }) => {
        const href = mail.text.match(/https?:\/\/\S+/)?.[0];
        return { subject: mail.subject, link: href ? new URL(href) : null, at: mtime };
      });
    },
  };
}

/** The embedded adapter with the real file mailer writing into a per-test outbox. */
function embeddedCtx(name: "pglite" | "postgres", db: SqlDriver, extra: { outage: AdapterCtx["outage"] }): AdapterCtx {
  const { mailer, sentTo } = fileMailer(name);
  const backend = createSqlBackend({ db, mailer, shopTitle: SHOP });
  return {
    name,
    backend,
    origin: ORIGIN,
    async mailsTo(email) {
      await backend.authEmails?.send(); // the email worker's step: queued reset and confirmation emails go out
      return sentTo(email).map(({ subject, link }) => ({ subject, link }));
    },
    ...superuser(db),
    fake: null,
    async expireLinks(email) {
      await db.query(
        `update auth.one_time_tokens set expires_at = now() - interval '1 second'
          where user_id = (select id from auth.users where lower(email) = lower($1))`,
        [email],
      );
    },
    makeMixers: (emails) => backend.syncMixers(emails),
    outage: extra.outage,
    close: () => backend.close(),
  };
}

/** One booted template for `users` harnesses: the first to boot boots it, the last to shut down closes it. */
function shared<T extends { close(): Promise<void> }>(boot: () => Promise<T>, users: number) {
  let template: Promise<T> | undefined;
  let left = users;
  return {
    boot: () => (template ??= boot()),
    async release() {
      if (--left === 0 && template) await (await template).close();
    },
  };
}
const sharedPglite = (users: number) => shared(bootPglite, users);

// The contract project does not isolate its files (vitest.config.ts): a worker's files share one
// in-memory PGlite, booted by the first and gone with the worker. Each file starts and stops its own
// PostgreSQL cluster (a copy of the run's), so none outlives the run.
const workerPglite = shared(bootPglite, Infinity);

export function pgliteHarness(pglite = sharedPglite(1)): AdapterHarness {
  let template: PgliteTemplate | undefined;
  return {
    name: "pglite",
    available: true,
    async boot() {
      template = await pglite.boot();
    },
    async fresh() {
      const db = await template!.clone();
      return embeddedCtx("pglite", db, { outage: null });
    },
    shutdown: () => pglite.release(),
  };
}

export function postgresHarness(postgres = shared(() => bootPostgres(), 1)): AdapterHarness {
  let template: PostgresTemplate | undefined;
  return {
    name: "postgres",
    available: postgresAvailable(),
    async boot() {
      template = await postgres.boot();
    },
    async fresh() {
      const { db } = await template!.fresh();
      const cluster = template!.cluster;
      return embeddedCtx("postgres", db, { outage: { begin: () => cluster.stop(), end: () => cluster.start() } });
    },
    shutdown: () => postgres.release(),
  };
}

export function supabaseHarness(pglite = sharedPglite(1)): AdapterHarness {
  let template: PgliteTemplate | undefined;
  return {
    name: "supabase",
    available: true,
    async boot() {
      template = await pglite.boot();
    },
    async fresh() {
      const db = await template!.clone();
      const fake = await startSupabaseFake({ db });
      // The server's own mailer sends what GoTrue does not (a deleted account's last email).
      const { mailer, sentTo } = fileMailer("supabase");
      const backend = createSupabaseBackend({
        url: fake.url,
        anonKey: fake.anonKey,
        serviceKey: fake.serviceKey,
        mailer,
        shopTitle: SHOP,
      });
      return {
        name: "supabase",
        backend,
        origin: ORIGIN,
        async mailsTo(email) {
          const auth = fake.mailbox
            .filter((m) => m.to === email)
            .map((m) => ({ subject: m.subject, link: new URL(m.link), at: m.sentAt ?? 0 }));
          return [...auth, ...sentTo(email)].sort((a, b) => a.at - b.at).map(({ subject, link }) => ({ subject, link }));
        },
        ...superuser(db),
        fake,
        async expireLinks(email) {
          fake.expireLinks(email);
        },
        async makeMixers(emails) {
          // The project's table, as docs/backends.md's "Mixers" says to fill it (lower case).
          await db.transaction(async (tx) => {
            await tx.query(`delete from public.mixers`);
            for (const e of emails)
              await tx.query(`insert into public.mixers (email) values (lower($1)) on conflict do nothing`, [e]);
          });
        },
        outage: { begin: () => fake.stop(), end: () => fake.start() },
        async close() {
          await backend.close();
          await fake.close();
          await db.close();
        },
      };
    },
    shutdown: () => pglite.release(),
  };
}

/** The adapters of the contract, in order; pglite and supabase on the worker's PGlite. */
export function allHarnesses(): AdapterHarness[] {
  return [pgliteHarness(workerPglite), postgresHarness(), supabaseHarness(workerPglite)];
}
