// The shop is the DJ's (20261209000000) on a data dir that had orders before: each keeps the design
// it was sold with, and the catalogue the migration seeds is the spec's, as the app's constants say.
import "../support/env";
import { afterEach, describe, expect, it } from "vitest";
import { readCatalogue, SEEDED_CATALOGUE } from "~/domain/catalogue";
import { migrate, migrationList, openPglite, type SqlDriver } from "~/server/backend/sql/db.server";

const upTo = (name: string) => migrationList().filter((m) => m.name < `supabase/migrations/${name}`);

describe("the shop is the DJ's (20261209000000)", () => {
  let db: SqlDriver | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it("orders placed before keep their design's name and image; the seed is the spec's library", async () => {
    db = await openPglite(undefined);
    await migrate(db, upTo("20261209000000"));
    await db.query(`insert into auth.users (id, email) values ('00000000-0000-4000-8000-0000000000bb', 'old@shop.test')`);
    const place = (code: string, design: string | null) =>
      db!.query(
        `insert into public.mixtapes (user_id, code, design_id) values ('00000000-0000-4000-8000-0000000000bb', $1, $2)`,
        [code, design],
      );
    await place("OLDD0001", "unicorn-mix");
    await place("OLDD0002", null);
    await migrate(db);
    const { rows } = await db.query(`select code, design_name, design_image from public.mixtapes order by code`);
    expect(rows).toEqual([
      { code: "OLDD0001", design_name: "unicorn mix", design_image: "/art/designs/unicorn-mix.svg" },
      { code: "OLDD0002", design_name: null, design_image: null },
    ]);
    const { rows: read } = await db.query<{ c: unknown }>(`select public.shop_catalogue() as c`);
    expect(readCatalogue(read[0].c)).toEqual(SEEDED_CATALOGUE);
  });
});
