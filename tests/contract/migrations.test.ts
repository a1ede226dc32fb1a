// Migrations on data that existed before them: what each one promises for old rows.
import "../support/env";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, migrationList, openPglite, type SqlDriver } from "~/server/backend/sql/db.server";
import { line } from "../support/money-line";
import { as } from "../support/rls";

const upTo = (name: string) => migrationList().filter((m) => m.name < `supabase/migrations/${name}`);

describe("usernames unique whatever their case (20261123000100)", () => {
  let db: SqlDriver | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it("keeps both accounts of an old clash, flags the later one, and refuses new clashes", async () => {
    db = await openPglite(undefined);
    await migrate(db, upTo("20261123000100"));
    for (const [email, username, at] of [
      ["first@clash.test", "alice_a", "2026-01-01"],
      ["second@clash.test", "ALICE_A", "2026-02-01"],
      ["third@clash.test", "Alice_A", "2026-03-01"],
      ["other@clash.test", "bob", "2026-01-05"],
    ]) {
      await db.query(
        `insert into auth.users (email, raw_user_meta_data, created_at) values ($1, jsonb_build_object('username', $2::text), $3)`,
        [email, username, at],
      );
      await db.query(`update public.profiles set created_at = $2 where username = $1`, [username, at]);
    }
    await migrate(db);
    const { rows } = await db.query(`select username, username_clash from public.profiles order by created_at`);
    expect(rows).toEqual([
      { username: "alice_a", username_clash: false },
      { username: "bob", username_clash: false },
      { username: "ALICE_A", username_clash: true },
      { username: "Alice_A", username_clash: true },
    ]);
    await expect(
      db.query(`insert into auth.users (email, raw_user_meta_data) values ('new@clash.test', '{"username":"BOB"}')`),
    ).rejects.toMatchObject({ code: "23505" });
    const exists = await db.query(`select public.username_exists('ALICE_a') as a, public.username_exists('nobody') as n`);
    expect(exists.rows).toEqual([{ a: true, n: false }]);
  });
});

describe("money is a ledger (20261201000000)", () => {
  let db: SqlDriver | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it("moves the old flags into rows: no order changes what it shows", async () => {
    db = await openPglite(undefined);
    await migrate(db, upTo("20261201000000"));
    await db.query(`insert into auth.users (id, email) values ('00000000-0000-4000-8000-0000000000aa', 'old@ledger.test')`);
    const place = (code: string) =>
      db!.query(`insert into public.mixtapes (user_id, code) values ('00000000-0000-4000-8000-0000000000aa', $1)`, [code]);
    for (const code of ["CASH0001", "CASH0002", "HOOK0001", "HOOK0002", "OPEN0001"]) await place(code);
    // The old triggers run as the table owner here: the marks as a mixer would have made them.
    await db.query(`update public.mixtapes set paid = true where code in ('CASH0001', 'CASH0002')`);
    await db.query(`update public.mixtapes set status = 'cancelled' where code = 'CASH0002'`);
    await db.query(`update public.mixtapes set refunded = true where code = 'CASH0002'`);
    await db.query(
      `select public.record_payment_event('stripe', 'evt_1', 'payment', 'HOOK0001', 1200, 'usd', 'pi_1'),
              public.record_payment_event('stripe', 'evt_2', 'payment', 'HOOK0002', 1500, 'usd', 'pi_2'),
              public.record_payment_event('stripe', 'evt_3', 'refund', null, 1500, 'usd', 'pi_2')`,
    );
    await migrate(db);
    const { rows } = await db.query<{ code: string; money: { lines: unknown[] } }>(
      `select code, public.order_money(m) as money from public.mixtapes m order by code`,
    );
    const lines = Object.fromEntries(rows.map((r) => [r.code, r.money.lines]));
    // Marked paid by hand, no amount: "Paid"; then cancelled and marked refunded: "Refunded", nothing due.
    expect(lines.CASH0001).toEqual([line({ currency: null })]);
    expect(lines.CASH0002).toEqual([line({ currency: null, refundedAll: true })]);
    expect(lines.HOOK0001).toEqual([line({ paid: 1200, net: 1200 })]);
    expect(lines.HOOK0002).toEqual([line({ paid: 1500, refunded: 1500, net: 0 })]);
    expect(lines.OPEN0001).toEqual([]);
    const { rows: paid } = await db.query(`select code from public.mixtapes m where public.order_paid(m) order by code`);
    expect(paid.map((r) => r.code)).toEqual(["CASH0001", "CASH0002", "HOOK0001", "HOOK0002"]);
  });
});

describe("the tape is a draft until sent (20261208000100)", () => {
  let db: SqlDriver | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it("keeps every tape: a sent order's stays its shopper's, one not sent yet becomes the mixer's draft, counts kept", async () => {
    db = await openPglite(undefined);
    await migrate(db, upTo("20261208000100"));
    const shopper = "00000000-0000-4000-8000-0000000000ab";
    await db.query(`insert into auth.users (id, email) values ($1, 'old@draft.test')`, [shopper]);
    for (const code of ["SENT0001", "DRFT0001", "DRFT0002"])
      await db.query(`insert into public.mixtapes (user_id, code) values ($1, $2)`, [shopper, code]);
    // As the old triggers let the table's owner: moved on, the tapes stored and heard under the old rule.
    await db.query(`update public.mixtapes set status = 'mixing' where code in ('SENT0001', 'DRFT0002')`);
    await db.query(`update public.mixtapes set status = 'sent' where code = 'SENT0001'`);
    for (const [code, downloads] of [
      ["SENT0001", 2],
      ["DRFT0001", 0],
      ["DRFT0002", 1],
    ] as const)
      await db.query(
        `insert into public.tapes (order_id, storage_key, file_name, content_type, size, duration_seconds, downloads)
         select id, code || '/a.mp3', 'mix.mp3', 'audio/mpeg', 1000, 60, $2 from public.mixtapes where code = $1`,
        [code, downloads],
      );
    await migrate(db);
    const seen = await as(
      db,
      "authenticated",
      shopper,
      async (tx) =>
        (
          await tx.query<{ code: string; tape: Record<string, unknown> | null }>(
            `select code, public.order_tape(m) as tape from public.mixtapes m order by code`,
          )
        ).rows,
    );
    expect(seen.map((r) => [r.code, r.tape && { downloads: r.tape.downloads, ext: r.tape.ext, key: r.tape.key }])).toEqual([
      ["DRFT0001", null],
      ["DRFT0002", null],
      ["SENT0001", { downloads: 2, ext: "mp3", key: undefined }],
    ]);
    // Nothing lost: every row and count is there; a draft the shopper fetched under the old rule stays as it is.
    const kept = await db.query(
      `select m.code, t.downloads from public.tapes t join public.mixtapes m on m.id = t.order_id order by m.code`,
    );
    expect(kept.rows).toEqual([
      { code: "DRFT0001", downloads: 0 },
      { code: "DRFT0002", downloads: 1 },
      { code: "SENT0001", downloads: 2 },
    ]);
  });
});

describe("the rate limits' counts come with the migrations (20261209000000)", () => {
  let db: SqlDriver | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it("a new database has the table, closed to the API roles; one the server made itself keeps its counts", async () => {
    db = await openPglite(undefined);
    await migrate(db);
    await db.query(`insert into mixtape_meta.rate_limits (key, points, expire) values ('post-ip:10.0.0.1', 3, null)`);
    await expect(as(db, "anon", null, (tx) => tx.query(`select * from mixtape_meta.rate_limits`))).rejects.toMatchObject({
      code: "42501",
    });
    await db.close();

    // Before this migration the server created the table at its first limit (rate-limiter-flexible's own statement).
    db = await openPglite(undefined);
    await migrate(db, upTo("20261209000000"));
    await db.query(`create schema if not exists mixtape_meta`);
    await db.query(
      `create table if not exists mixtape_meta.rate_limits (key varchar(255) primary key, points integer not null default 0, expire bigint)`,
    );
    await db.query(`insert into mixtape_meta.rate_limits (key, points, expire) values ('loginPerIp:10.0.0.2', 2, 99)`);
    await migrate(db);
    expect((await db.query(`select key, points, expire from mixtape_meta.rate_limits`)).rows).toEqual([
      { key: "loginPerIp:10.0.0.2", points: 2, expire: 99 },
    ]);
  });
});
