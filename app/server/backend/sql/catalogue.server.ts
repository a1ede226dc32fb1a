// The catalogue: songs, designs, cover backgrounds and the shop's words; anyone reads, mixers change (the functions say what happened).
import type { CatalogueCalls, CatalogueOutcome } from "../port.server";
import { attempt, ownerQuery } from "./db.server";
import type { SqlBackendOptions, SqlContext } from "./context.server";

/** The shop's title for the auth emails: the one the mixer saved, else the environment's. */
export async function shopTitleNow({ db, shopTitle }: Pick<SqlBackendOptions, "db" | "shopTitle">): Promise<string> {
  try {
    const [row] = await ownerQuery<{ title: string | null }>(db, `select shop_title as title from public.shop_settings`);
    return row?.title ?? shopTitle;
  } catch {
    return shopTitle;
  }
}

export function catalogue({ asSession }: SqlContext): CatalogueCalls {
  /** One function of supabase/migrations, as the session's role; its one value. */
  const call = <T>(sql: string, params: unknown[]) =>
    asSession(async (tx) => (await tx.query<{ value: T }>(`select ${sql} as value`, params)).rows[0]?.value ?? null);
  const outcome = (sql: string, params: unknown[]) =>
    attempt({ outcome: null }, async () => ({ outcome: await call<CatalogueOutcome>(sql, params) }));
  const added = (sql: string, params: unknown[]) => attempt({ id: null }, async () => ({ id: await call<string>(sql, params) }));

  return {
    catalogue: () =>
      attempt({ catalogue: null }, async () => ({
        catalogue: await call<Record<string, unknown>>(`public.shop_catalogue()`, []),
      })),
    saveSong: ({ id, version, title, thumbnail, previewUrl }) =>
      outcome(`public.save_song($1, $2, $3, $4, $5)`, [id, version, title, thumbnail, previewUrl]),
    addSong: ({ title, thumbnail, previewUrl }) => added(`public.add_song($1, $2, $3)`, [title, thumbnail, previewUrl]),
    setSongActive: (id, version, active) => outcome(`public.set_song_active($1, $2, $3)`, [id, version, active]),
    saveDesign: ({ id, version, name, image, colour }) =>
      outcome(`public.save_design($1, $2, $3, $4, $5)`, [id, version, name, image, colour]),
    addDesign: ({ name, image, colour }) => added(`public.add_design($1, $2, $3)`, [name, image, colour]),
    setDesignActive: (id, version, active) => outcome(`public.set_design_active($1, $2, $3)`, [id, version, active]),
    saveCoverBackground: (slot, version, image) => outcome(`public.save_cover_background($1, $2, $3)`, [slot, version, image]),
    moveInCatalogue: (kind, id, by) =>
      attempt({ moved: false }, async () => ({
        moved: (await call<boolean>(`public.move_in_catalogue($1, $2, $3)`, [kind, id, by])) === true,
      })),
    saveShopWords: (w) =>
      attempt({ saved: false }, async () => ({
        saved:
          (await call<boolean>(`public.save_shop_words($1, $2, $3, $4, $5, $6, $7)`, [
            w.title,
            w.tagline,
            w.mixerName,
            w.productLabel,
            w.priceNote,
            w.creatorUrl,
            w.checkoutUrl,
          ])) === true,
      })),
  };
}
