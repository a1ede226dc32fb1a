// The shop's own settings (open, the closed message, the most open orders): mixers read and save them.
import type { BackendRequest, ShopSettings } from "../backend/port.server";
import { getLog } from "../platform/log.server";

/** The settings and what the storefront shows now; a failed read is the error page (nothing sensible to edit). */
export async function shopSettingsPage(api: BackendRequest) {
  const [{ settings, error }, { status }] = await Promise.all([api.shopSettings(), api.shopStatus()]);
  if (error || !settings) {
    getLog().error({ code: error?.code, err: error?.message }, "shop settings: read failed");
    throw new Response(null, { status: 500 });
  }
  return { settings, status };
}

/** RLS lets only a mixer save; false when nothing was saved. */
export async function saveShopSettings(api: BackendRequest, settings: ShopSettings): Promise<boolean> {
  const { saved, error } = await api.saveShopSettings(settings);
  if (error || !saved) getLog().error({ code: error?.code, err: error?.message }, "shop settings: save failed");
  return saved && !error;
}
