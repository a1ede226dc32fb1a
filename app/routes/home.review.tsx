import { useEffect, useRef } from "react";
import { data, Form, Link, redirect, useNavigate, useNavigation } from "react-router";
import type { Route } from "./+types/home.review";
import { useOptimisticDeck } from "~/components/deck-view";
import { findDesign, findSong } from "~/domain/catalogue";
import { COPY } from "~/domain/copy";
import { afterTransmit, optionLabels, setCode } from "~/domain/deck";
import { generateOrderCode } from "~/domain/order-code";
import { transmitSchema } from "~/domain/schemas";
import { useRootData } from "~/root";
import { commitDeck, loadDeck, serverRandomInt } from "~/server/deck.server";
import { guard, redirectWith, readForm } from "~/server/http.server";
import { transmitOrder } from "~/server/orders.server";
import { backendFor } from "~/server/session.server";
import { flashToast, newToast } from "~/server/toast.server";

export const meta: Route.MetaFunction = () => [{ title: "Review Order" }];

const REVIEW_INTENTS = ["generate-code", "transmit"] as const;

export async function action({ request }: Route.ActionArgs) {
  return guard(async () => {
    const api = await backendFor(request);
    const user = await api.getUser();
    if (!user) {
      // Spec: transmit needs a known user, otherwise the toast "Error" / "User not found."
      const headers = new Headers();
      await flashToast(request, headers, { type: "error", message: COPY.toast.error, description: COPY.toast.userNotFound });
      return redirectWith("/auth", api.headers, headers);
    }
    const form = await readForm(request);
    const intent = form.get("intent");
    if (!REVIEW_INTENTS.includes(intent as (typeof REVIEW_INTENTS)[number])) {
      return data({ toast: newToast("error", COPY.errors.unknownIntent) }, { status: 400 });
    }
    const { deck } = await loadDeck(request, user.id);

    if (intent === "generate-code") {
      const next = setCode(deck, generateOrderCode(serverRandomInt));
      return redirect("/review", { status: 303, headers: { "Set-Cookie": await commitDeck(request, next) } });
    }

    const parsed = transmitSchema.safeParse({ code: form.get("code") ?? undefined });
    if (!parsed.success) {
      return data({ toast: newToast("error", COPY.toast.error, parsed.error.issues[0].message) }, { status: 400 });
    }
    const outcome = await transmitOrder(api, user.id, deck, parsed.data.code);
    if (!outcome.ok) {
      return data({ toast: newToast("error", outcome.title, outcome.message) }, { status: outcome.status });
    }
    const headers = new Headers(api.headers);
    if (deck.code === parsed.data.code) headers.append("Set-Cookie", await commitDeck(request, afterTransmit(deck)));
    await flashToast(request, headers, { type: "success", ...COPY.toast.orderSubmitted });
    return redirect("/", { status: 303, headers });
  });
}

export default function ReviewDialog() {
  const { deck } = useOptimisticDeck();
  const root = useRootData();
  const shop = root?.shop;
  const navigation = useNavigation();
  const navigate = useNavigate();
  const dialog = useRef<HTMLDialogElement>(null);
  const submittingIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const transmitting = submittingIntent === "transmit";
  const design = findDesign(deck.design);
  const songs = deck.songs.map((id) => findSong(id)!).filter(Boolean);
  const options = optionLabels(deck.toggles, shop?.mixerName ?? "");

  useEffect(() => {
    // With JavaScript: a real modal (inert page behind, focus inside, Escape closes).
    const el = dialog.current;
    if (!el) return;
    if (el.open && !el.matches(":modal")) {
      el.close();
      el.showModal();
    }
    const onCancel = (e: Event) => {
      e.preventDefault();
      navigate("/", { preventScrollReset: true });
    };
    el.addEventListener("cancel", onCancel);
    return () => el.removeEventListener("cancel", onCancel);
  }, [navigate]);

  return (
    <dialog
      ref={dialog}
      open
      aria-labelledby="review-heading"
      className="fixed inset-0 z-40 m-0 h-full max-h-none w-full max-w-none overflow-y-auto bg-ink/80 p-0 text-cream backdrop:bg-ink/80 sm:p-6"
      data-testid="review-dialog"
    >
      <div className="card mx-auto max-w-2xl border-2 border-signal p-5 sm:p-6">
        <div className="flex items-start justify-between gap-4">
          <h2 id="review-heading" className="font-display text-2xl font-bold uppercase tracking-wider text-acid" tabIndex={-1}>
            {COPY.review.title}
          </h2>
          <Link to="/" preventScrollReset className="btn-ghost" aria-label={`${COPY.review.close} review`} autoFocus>
            {COPY.review.close}
          </Link>
        </div>

        <div className="mt-4 grid gap-5 sm:grid-cols-[12rem_minmax(0,1fr)]">
          <div>
            <h3 className="label">{COPY.review.design}</h3>
            {design ? (
              <figure>
                <img src={design.image} alt={`Cover design: ${design.name}`} width={320} height={200} className="w-full rounded-md" />
                <figcaption className="mt-1 font-display text-sm font-bold uppercase" data-testid="review-design">
                  {design.name}
                </figcaption>
              </figure>
            ) : (
              <figure>
                <div className="flex aspect-[8/5] w-full items-center justify-center rounded-md border-2 border-dashed border-line font-display text-sm text-muted">
                  {COPY.review.noDesign}
                </div>
                <figcaption className="mt-1 font-display text-sm font-bold uppercase" data-testid="review-design">
                  {COPY.review.none}
                </figcaption>
              </figure>
            )}
          </div>

          <div>
            <h3 className="label">{COPY.review.summary}</h3>
            <dl className="space-y-2 text-sm">
              <div className="flex justify-between gap-3">
                <dt className="text-muted">{COPY.home.codename}</dt>
                <dd className="font-display font-bold text-acid" data-testid="review-codename">
                  {deck.codename}
                </dd>
              </div>
              <div>
                <dt className="text-muted">{COPY.review.tracks}</dt>
                <dd>
                  <ol className="mt-1 list-decimal space-y-0.5 pl-6" data-testid="review-tracks">
                    {songs.map((s) => (
                      <li key={s.id}>{s.title}</li>
                    ))}
                  </ol>
                </dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt className="text-muted">{COPY.review.options}</dt>
                <dd className="text-right" data-testid="review-options">
                  {options.length ? options.join(", ") : COPY.review.none}
                </dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt className="text-muted">{COPY.review.note}</dt>
                <dd className="min-w-0 break-words text-right" data-testid="review-note">
                  {deck.note || COPY.review.none}
                </dd>
              </div>
              <div className="flex justify-between gap-3 border-t border-line pt-2">
                <dt className="text-muted">{COPY.review.total}</dt>
                <dd className="font-display font-bold">{COPY.review.totalValue}</dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt className="text-muted">{COPY.review.delivery}</dt>
                <dd className="font-display font-bold">{COPY.review.deliveryValue}</dd>
              </div>
            </dl>
          </div>
        </div>

        <ol className="mt-6 space-y-3">
          <li className="rounded-lg border border-line p-3">
            <p className="label">1. {COPY.review.orderCode}</p>
            <div className="flex flex-wrap items-center gap-3">
              <Form method="post" action="/review" preventScrollReset>
                <input type="hidden" name="intent" value="generate-code" />
                <button type="submit" className="btn-ghost" disabled={submittingIntent === "generate-code" || transmitting}>
                  {deck.code ? COPY.review.regenerateCode : COPY.review.generateCode}
                </button>
              </Form>
              {deck.code ? (
                <output className="font-display text-2xl font-bold tracking-[0.25em] text-acid" data-testid="order-code">
                  {deck.code}
                </output>
              ) : null}
            </div>
          </li>
          <li className="rounded-lg border border-line p-3">
            <p className="label">2. Transmit</p>
            <Form method="post" action="/review" preventScrollReset>
              <input type="hidden" name="intent" value="transmit" />
              <input type="hidden" name="code" value={deck.code ?? ""} />
              <button type="submit" className="btn-primary" disabled={!deck.code || transmitting}>
                {transmitting ? COPY.review.transmitting : COPY.review.transmit}
              </button>
            </Form>
          </li>
          <li className="rounded-lg border border-line p-3">
            <p className="label">3. Pay</p>
            <a href={shop?.checkoutUrl} target="_blank" rel="noopener" className="btn-ghost">
              {COPY.review.payNow}
            </a>
          </li>
        </ol>
      </div>
    </dialog>
  );
}
