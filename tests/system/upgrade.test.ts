// Upgrading a data dir: one made by the previous release (the migrations it shipped,
// with its accounts and orders), then started by this one. Nothing is lost: every order
// is there, reads as received and unpaid, its shopper can pay it, and the mixer's
// console lists it with its shopper's name and email. No email is sent for old orders.
import { describe, expect, it } from "vitest";
import { hashPassword } from "~/server/backend/passwords.server";
import { migrate, migrationList, openPglite } from "~/server/backend/sql/db.server";
import { Client, htmlText, openDataDir, PASSWORD, suiteServer } from "./setup";

/**
 * The migrations of the release before this one: those stamped before this release's
 * first (the order lifecycle, 20261123000000), and the unstamped db/shim.sql.
 */
const PREVIOUS = migrationList().filter((m) => (/\d{14}/.exec(m.name)?.[0] ?? "") < "20261123000000");
const SHOPPERS = [
  { email: "old.a@upgrade.test", username: "old_a" },
  { email: "old.b@upgrade.test", username: "old_b" },
];
const MIXER = { email: "dj@upgrade.test", username: "dj_upgrade" };
const code = (shopper: number, i: number) => `OLD${shopper}${String(i).padStart(4, "0")}`;

describe("a data dir of the previous release, started by this one", () => {
  const server = suiteServer("upgrade", { seed: previousRelease, env: { MIXER_EMAILS: MIXER.email } });
  const { dataDir } = server;

  /** The data dir as the previous release left it. */
  async function previousRelease(dataDir: string) {
    expect(PREVIOUS.map((m) => m.name)).toEqual(["db/shim.sql", "supabase/migrations/20261101000000_mixtape_schema.sql"]);
    const db = await openPglite(dataDir);
    await migrate(db, PREVIOUS);
    const hash = await hashPassword(PASSWORD);
    for (const account of [...SHOPPERS, MIXER]) {
      await db.query(
        `insert into auth.users (email, encrypted_password, email_confirmed_at, raw_user_meta_data) values ($1, $2, now(), jsonb_build_object('username', $3::text))`,
        [account.email, hash, account.username],
      );
    }
    // The previous release's orders: the columns it had, nothing more.
    for (const [s, shopper] of SHOPPERS.entries()) {
      for (let i = 0; i < 10; i++) {
        await db.query(
          `insert into public.mixtapes (user_id, code, tracks, toggles, note) select id, $2, $3::jsonb, '{"djIntro":true}', $4 from auth.users where email = $1`,
          [
            shopper.email,
            code(s, i),
            JSON.stringify([{ id: "3", title: "Neon Curfew", thumbnail: "/art/thumbs/03.svg", previewUrl: "/previews/03.mp3" }]),
            `old note ${i}`,
          ],
        );
      }
    }
    await db.close();
  }

  it("keeps every order: received and unpaid for its shopper, listed with its shopper for the mixer", async () => {
    for (const [s, shopper] of SHOPPERS.entries()) {
      const client = new Client(server.url);
      expect((await client.logIn(shopper.email)).status).toBe(302);
      const page = htmlText((await client.get("/my-mixtapes")).body);
      for (let i = 0; i < 10; i++) expect(page).toContain(code(s, i));
      expect(page.match(/Status: Received/g)).toHaveLength(10);
      expect(page.match(/>Pay now</g)).toHaveLength(10);
      expect(page).toContain(`https://example.com/checkout?code=${code(s, 0)}`);
    }
    const mixer = new Client(server.url);
    await mixer.logIn(MIXER.email);
    const queue = htmlText((await mixer.get("/mixer")).body);
    expect(queue.match(/data-testid="queue-order"/g)).toHaveLength(20);
    expect(queue).toContain("old_a");
    expect(queue).toContain("old.b@upgrade.test");
    expect(queue).toContain("old note 9");
  });

  it("after it stops: the same rows, the new migration recorded once, and no email queued for old orders", async () => {
    await server.stop();
    const db = await openDataDir(dataDir);
    try {
      const orders = (
        await db.query<{ n: number; received: number; unpaid: number }>(
          `select count(*)::int as n, count(*) filter (where status = 'received')::int as received, count(*) filter (where not public.order_paid(m))::int as unpaid from public.mixtapes m`,
        )
      ).rows[0];
      expect(orders).toEqual({ n: 20, received: 20, unpaid: 20 });
      const notes = (await db.query<{ note: string }>(`select note from public.mixtapes where code = $1`, [code(1, 7)])).rows;
      expect(notes).toEqual([{ note: "old note 7" }]);
      const applied = (await db.query<{ name: string }>(`select name from mixtape_meta.migrations order by name`)).rows.map(
        (r) => r.name,
      );
      expect(applied).toEqual(
        migrationList()
          .map((m) => m.name)
          .sort(),
      );
      expect((await db.query(`select 1 from public.order_emails`)).rows).toEqual([]);
      expect((await db.query(`select email from public.mixers`)).rows).toEqual([{ email: MIXER.email }]);
    } finally {
      await db.close();
    }
  });
});
