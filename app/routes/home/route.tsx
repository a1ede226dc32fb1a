import { data, Outlet, redirect } from "react-router";
import type { Route } from "./+types/route";
import { inTurn, useOptimisticDeck } from "~/components/deck-form";
import { PreviewProvider } from "~/components/previews";
import { intentAnchor, intentAnswer, parseDeckIntent } from "~/domain/intents";
import { useRootData } from "~/root";
import { requireUser } from "~/server/context.server";
import { isFetch, readForm } from "~/server/platform/http.server";
import { refuseWithToast } from "~/server/platform/forms.server";
import { toast } from "~/server/platform/toast.server";
import { catalogueOf, shopWordsOf } from "~/server/services/catalogue.server";
import { editDeck, loadDeck } from "~/server/services/deck.server";
import { placedOrder, shopBanner } from "~/server/services/orders.server";
import { CoverCard } from "./cover-card";
import { PlacedOrder } from "./placed-order";
import { ShopBanner } from "./shop-banner";
import { DeckBar, DeckPanel } from "./deck-panel";
import { DesignCarousel } from "./design-carousel";
import { OptionsPanel } from "./options-panel";
import { SongLibrary } from "./song-library";
import { StepBar } from "./step-bar";

export const meta: Route.MetaFunction = () => [{ title: "Build your mixtape" }];

export async function loader({ url, context }: Route.LoaderArgs) {
  const { user, api } = requireUser(context);
  const [deck, placed, shop, catalogue] = await Promise.all([
    loadDeck(context, user.id),
    placedOrder(
      api,
      user,
      url.searchParams.get("placed"),
      shopWordsOf(context).then((w) => w.checkoutUrl),
    ),
    shopBanner(api),
    catalogueOf(context),
  ]);
  return { deck, placed, shop, catalogue };
}

/** Every deck intent: POST/redirect/GET without JavaScript, data for fetchers. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = requireUser(context);
  const form = await readForm(request);
  const parsed = parseDeckIntent(form);
  if (!parsed.ok) return refuseWithToast(context, 400, { message: parsed.error });
  const edit = await editDeck(context, user.id, parsed.intent);
  if (!edit.ok) return refuseWithToast(context, 400, { message: edit.error });
  const to = `/${intentAnchor(parsed.intent)}`;
  // Saved options answer in the options panel, where the shopper is (not as a toast over the page).
  const answer = intentAnswer(parsed.intent, form);
  if (answer)
    return isFetch(form)
      ? toast(context).data({ ok: true as const }, answer)
      : toast(context).redirect(to, answer, { status: 303 });
  if (isFetch(form)) return data({ ok: true as const });
  return redirect(to, { status: 303 });
}

export const clientAction = ({ serverAction }: Route.ClientActionArgs) => inTurn(serverAction);

export default function Home({ loaderData }: Route.ComponentProps) {
  const { deck, busy } = useOptimisticDeck();
  const { catalogue } = loaderData;
  const shop = useRootData()?.shop;
  const mixer = shop?.mixerName ?? "the mixer";
  return (
    <PreviewProvider>
      <h1 className="sr-only">Build your mixtape</h1>
      <StepBar />
      {loaderData.shop ? <ShopBanner {...loaderData.shop} /> : null}
      {loaderData.placed ? <PlacedOrder key={loaderData.placed.code} {...loaderData.placed} mixer={mixer} /> : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-w-0 space-y-8">
          <SongLibrary deck={deck} catalogue={catalogue} />
          <DesignCarousel deck={deck} catalogue={catalogue} />
        </div>
        {/* Sticky on a desktop, and never taller than the screen: what is below the deck scrolls within it, so
            the options and their answer can always be brought into view. */}
        <aside
          className="min-w-0 space-y-6 lg:sticky lg:top-4 lg:max-h-[calc(100dvh-2rem)] lg:self-start lg:overflow-y-auto"
          aria-label="Your mixtape"
        >
          <DeckPanel deck={deck} catalogue={catalogue} mixer={mixer} busy={busy} />
          <CoverCard deck={deck} catalogue={catalogue} product={shop?.productLabel ?? ""} />
          <OptionsPanel deck={deck} mixer={mixer} />
        </aside>
      </div>
      <DeckBar deck={deck} />
      <Outlet />
    </PreviewProvider>
  );
}
