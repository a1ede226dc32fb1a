// The catalogue: songs, designs, cover backgrounds and the shop's words; anyone reads, mixers change (the functions say what happened).
import type { CatalogueCalls, CatalogueOutcome } from "../port.server";
import { check } from "./client.server";
import type { SupabaseContext } from "./context.server";

export function catalogue({ supabase }: SupabaseContext): CatalogueCalls {
  const rpc = async (fn: string, args: Record<string, unknown>) => {
    const { data, error } = await supabase.rpc(fn, args);
    return { data: error ? null : (data as unknown), error: check(error) };
  };
  const outcome = async (fn: string, args: Record<string, unknown>) => {
    const { data, error } = await rpc(fn, args);
    return { outcome: typeof data === "string" ? (data as CatalogueOutcome) : null, error };
  };
  const added = async (fn: string, args: Record<string, unknown>) => {
    const { data, error } = await rpc(fn, args);
    return { id: typeof data === "string" ? data : null, error };
  };

  return {
    async catalogue() {
      const { data, error } = await rpc("shop_catalogue", {});
      return {
        catalogue: data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : null,
        error,
      };
    },
    saveSong: ({ id, version, title, thumbnail, previewUrl }) =>
      outcome("save_song", { p_id: id, p_version: version, p_title: title, p_thumbnail: thumbnail, p_preview_url: previewUrl }),
    addSong: ({ title, thumbnail, previewUrl }) =>
      added("add_song", { p_title: title, p_thumbnail: thumbnail, p_preview_url: previewUrl }),
    setSongActive: (id, version, active) => outcome("set_song_active", { p_id: id, p_version: version, p_active: active }),
    saveDesign: ({ id, version, name, image, colour }) =>
      outcome("save_design", { p_id: id, p_version: version, p_name: name, p_image: image, p_colour: colour }),
    addDesign: ({ name, image, colour }) => added("add_design", { p_name: name, p_image: image, p_colour: colour }),
    setDesignActive: (id, version, active) => outcome("set_design_active", { p_id: id, p_version: version, p_active: active }),
    saveCoverBackground: (slot, version, image) =>
      outcome("save_cover_background", { p_slot: slot, p_version: version, p_image: image }),
    async moveInCatalogue(kind, id, by) {
      const { data, error } = await rpc("move_in_catalogue", { p_kind: kind, p_id: id, p_by: by });
      return { moved: data === true, error };
    },
    async saveShopWords(w) {
      const { data, error } = await rpc("save_shop_words", {
        p_title: w.title,
        p_tagline: w.tagline,
        p_mixer_name: w.mixerName,
        p_product_label: w.productLabel,
        p_price_note: w.priceNote,
        p_creator_url: w.creatorUrl,
        p_checkout_url: w.checkoutUrl,
      });
      return { saved: data === true, error };
    },
  };
}
