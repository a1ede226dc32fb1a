// The shop's catalogue and words, read from the database once per request (the root's loader and the
// page's ask at once, so it joins the page's one transaction: decisions/024-the-shop-is-the-djs.md).
// Nothing is cached across requests, so every process sees a mixer's change on its next request.
import type { RouterContextProvider } from "react-router";
import { readCatalogue, type Catalogue } from "~/domain/catalogue";
import { shopWordsOver, type ShopWords } from "~/domain/shop-words";
import type { BackendRequest } from "../backend/port.server";
import { backendOf } from "../context.server";
import { shopCopy } from "../platform/config.server";
import { getLog } from "../platform/log.server";

type Context = Readonly<RouterContextProvider>;
export type ShopRead = { catalogue: Catalogue; words: ShopWords; failed: boolean };

const reads = new WeakMap<Context, Promise<ShopRead>>();

/** The catalogue and the words as the database has them now; a failed read gives the words of the environment and no songs. */
export async function readShop(api: BackendRequest): Promise<ShopRead> {
  const { catalogue, error } = await api.catalogue();
  if (error || !catalogue) {
    if (error) getLog().error({ code: error.code, err: error.message }, "catalogue: read failed");
    return { catalogue: readCatalogue(null), words: shopCopy(), failed: true };
  }
  return { catalogue: readCatalogue(catalogue), words: shopWordsOver(shopCopy(), catalogue.words), failed: false };
}

/** This request's read, made once (every loader of a page shares it). */
export function shopOf(context: Context): Promise<ShopRead> {
  let read = reads.get(context);
  if (!read) {
    read = readShop(backendOf(context));
    reads.set(context, read);
  }
  return read;
}

/** The catalogue a page or action works with; a failed read is the error page (there is nothing to sell). */
export async function catalogueOf(context: Context): Promise<Catalogue> {
  const read = await shopOf(context);
  if (read.failed) throw new Response(null, { status: 503, headers: { "Retry-After": "5" } });
  return read.catalogue;
}

/** The words every page shows (the header, the footer, the storefront's); never an error page of their own (an outage: the environment's). */
export const shopWordsOf = (context: Context): Promise<ShopWords> =>
  shopOf(context).then(
    (read) => read.words,
    () => shopCopy(),
  );

/** After a change, the rest of the request reads afresh. */
export const forgetShop = (context: Context) => void reads.delete(context);
