// Row-level security and constraints proven in SQL, bypassing the app: each check
// runs in a transaction that sets the request's JWT claims and switches to the role
// (`authenticated` or `anon`) exactly as Supabase's PostgREST does, on the schema of
// db/shim.sql + supabase/migrations. Embedded databases only (PGlite and PostgreSQL).
import "../support/env";
import { describe, expect, it } from "vitest";
import type { SqlDriver } from "~/server/backend/sql/db.server";
import { A, B, asA, asAnon, insertOrder, rlsDatabase, sqlTargets } from "../support/rls";

describe.each(sqlTargets())("RLS and constraints in SQL: $name", (target) => {
  let db: SqlDriver;
  rlsDatabase(target, (fresh) => (db = fresh));

  it("the superuser bypasses RLS (so every check below switches role first)", async () => {
    const { rows } = await db.query(`select code from public.mixtapes order by code`);
    expect(rows.map((r) => r.code)).toEqual(["AAAAAAA1", "BBBBBBB1"]);
    const { rows: profiles } = await db.query(`select id, username from public.profiles order by username`);
    expect(profiles).toEqual([
      { id: A, username: "rebel_a" },
      { id: B, username: "rebel_b" },
    ]);
  });

  it("auth.uid() is the sub of the request's claims", async () => {
    expect((await asA(db, (tx) => tx.query(`select auth.uid()::text as uid`))).rows[0].uid).toBe(A);
    expect((await asAnon(db, (tx) => tx.query(`select auth.uid() as uid`))).rows[0].uid).toBeNull();
  });

  it("authenticated sees only its own mixtapes and profile", async () => {
    await asA(db, async (tx) => {
      expect((await tx.query(`select code from public.mixtapes`)).rows).toEqual([{ code: "AAAAAAA1" }]);
      expect((await tx.query(`select code from public.mixtapes where user_id = $1`, [B])).rows).toEqual([]);
      expect((await tx.query(`select username from public.profiles`)).rows).toEqual([{ username: "rebel_a" }]);
      expect((await tx.query(`select username from public.profiles where id = $1`, [B])).rows).toEqual([]);
    });
  });

  it("authenticated can insert its own order, not one with another user's id (42501)", async () => {
    await asA(db, (tx) => insertOrder(tx, { user_id: A, code: "AAAAAAA2" }));
    await expect(asA(db, (tx) => insertOrder(tx, { user_id: B, code: "AAAAAAA3" }))).rejects.toMatchObject({ code: "42501" });
    const { rows } = await db.query(`select code from public.mixtapes where code like 'AAAAAAA%' order by code`);
    expect(rows.map((r) => r.code)).toEqual(["AAAAAAA1", "AAAAAAA2"]);
  });

  it("orders cannot be changed or deleted by their owner (no grant: 42501)", async () => {
    await expect(
      asA(db, (tx) => tx.query(`update public.mixtapes set note = 'x' where code = 'AAAAAAA1'`)),
    ).rejects.toMatchObject({ code: "42501" });
    await expect(asA(db, (tx) => tx.query(`delete from public.mixtapes where code = 'AAAAAAA1'`))).rejects.toMatchObject({
      code: "42501",
    });
  });

  it("anon cannot read profiles or mixtapes (42501) but can call username_exists", async () => {
    await expect(asAnon(db, (tx) => tx.query(`select * from public.profiles`))).rejects.toMatchObject({ code: "42501" });
    await expect(asAnon(db, (tx) => tx.query(`select * from public.mixtapes`))).rejects.toMatchObject({ code: "42501" });
    await expect(asAnon(db, (tx) => insertOrder(tx, { user_id: A, code: "ANON0001" }))).rejects.toMatchObject({ code: "42501" });
    const exists = await asAnon(db, (tx) =>
      tx.query(`select public.username_exists('rebel_a') as yes, public.username_exists('nobody') as no`),
    );
    expect(exists.rows).toEqual([{ yes: true, no: false }]);
    // Authenticated callers may use it too.
    expect((await asA(db, (tx) => tx.query(`select public.username_exists('rebel_b') as yes`))).rows).toEqual([{ yes: true }]);
  });

  it("the embedded auth's tables are closed to anon and authenticated (42501)", async () => {
    for (const table of ["auth.users", "auth.sessions", "auth.one_time_tokens"]) {
      await expect(asA(db, (tx) => tx.query(`select * from ${table}`))).rejects.toMatchObject({ code: "42501" });
      await expect(asAnon(db, (tx) => tx.query(`select * from ${table}`))).rejects.toMatchObject({ code: "42501" });
    }
  });

  it("a user may change its own username only, and not to a taken one", async () => {
    const own = await asA(db, (tx) =>
      tx.query(`update public.profiles set username = 'rebel_a2' where id = $1 returning username`, [A]),
    );
    expect(own.rows).toEqual([{ username: "rebel_a2" }]);
    const other = await asA(db, (tx) =>
      tx.query(`update public.profiles set username = 'hijack' where id = $1 returning username`, [B]),
    );
    expect(other.rows).toEqual([]);
    await expect(
      asA(db, (tx) => tx.query(`update public.profiles set username = 'rebel_b' where id = $1`, [A])),
    ).rejects.toMatchObject({ code: "23505" });
    await expect(asA(db, (tx) => tx.query(`update public.profiles set id = $2 where id = $1`, [A, B]))).rejects.toMatchObject({
      code: "42501",
    });
    const { rows } = await db.query(`select username from public.profiles order by username`);
    expect(rows.map((r) => r.username)).toEqual(["rebel_a2", "rebel_b"]);
  });

  it("a note over 120 characters fails with 23514; 120 is fine", async () => {
    await expect(asA(db, (tx) => insertOrder(tx, { user_id: A, code: "NOTE0121", note: "n".repeat(121) }))).rejects.toMatchObject(
      { code: "23514" },
    );
    // 120 characters, some of them multi-byte: the limit counts characters.
    await asA(db, (tx) => insertOrder(tx, { user_id: A, code: "NOTE0120", note: "é".repeat(60) + "n".repeat(60) }));
  });

  it("a bad order code fails with 23514; a duplicate with 23505", async () => {
    for (const code of ["abcdefgh", "ABC1234", "ABCD12345", "ABCD-123", ""]) {
      await expect(asA(db, (tx) => insertOrder(tx, { user_id: A, code }))).rejects.toMatchObject({ code: "23514" });
    }
    // Unique across users: B's code cannot be reused by A (A cannot even see it).
    await expect(asA(db, (tx) => insertOrder(tx, { user_id: A, code: "BBBBBBB1" }))).rejects.toMatchObject({ code: "23505" });
  });

  it("tracks must be a JSON array and toggles a JSON object (23514)", async () => {
    await expect(asA(db, (tx) => insertOrder(tx, { user_id: A, code: "JSON0001", tracks: `{"id":"1"}` }))).rejects.toMatchObject({
      code: "23514",
    });
    await expect(asA(db, (tx) => insertOrder(tx, { user_id: A, code: "JSON0002", toggles: `[true]` }))).rejects.toMatchObject({
      code: "23514",
    });
  });

  it("the sign-up trigger: a taken username fails the whole insert with 23505, leaving no user", async () => {
    await expect(
      db.query(`insert into auth.users (email, raw_user_meta_data) values ('c@example.test', '{"username":"rebel_a"}')`),
    ).rejects.toMatchObject({ code: "23505" });
    expect((await db.query(`select 1 from auth.users where email = 'c@example.test'`)).rows).toEqual([]);
    // A blank username is stored as null; no username at all is fine too.
    await db.query(
      `insert into auth.users (email, raw_user_meta_data) values ('d@example.test', '{"username":"  "}'), ('e@example.test', '{}')`,
    );
    const { rows } = await db.query(
      `select u.email, p.username from auth.users u join public.profiles p on p.id = u.id where u.email in ('d@example.test', 'e@example.test') order by u.email`,
    );
    expect(rows).toEqual([
      { email: "d@example.test", username: null },
      { email: "e@example.test", username: null },
    ]);
    // Emails are unique regardless of case.
    await expect(db.query(`insert into auth.users (email) values ('A@EXAMPLE.TEST')`)).rejects.toMatchObject({ code: "23505" });
  });
});
