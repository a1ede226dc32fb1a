// Migrations on data that existed before them: what each one promises for old rows.
import "../support/env";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, migrationList, openPglite, type SqlDriver } from "~/server/backend/sql/db.server";

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
