import { useEffect, useRef } from "react";
import { Form, Link, redirect, useNavigate } from "react-router";
import { useIsPending } from "~/components/forms";
import { CardAnswer } from "~/components/card-answer";
import { DialogToasts } from "~/components/toaster";
import type { Route } from "./+types/review";
import { inTurn, useCatalogue, useOptimisticDeck } from "~/components/deck-form";
import { findDesign, findSong } from "~/domain/catalogue";
import { TOAST_COPY } from "~/domain/copy";
import { HOME_COPY } from "~/domain/copy-home";
import { REVIEW_COPY } from "~/domain/copy-review";
import { optionLabels } from "~/domain/deck";
import { TRANSMIT_ANSWER_PLACE } from "~/domain/intents";
import { parseReviewIntent } from "~/domain/order-intents";
import { useRootData } from "~/root";
import { backendOf, userContext } from "~/server/context.server";
import { refuseWithToast } from "~/server/platform/forms.server";
import { readForm } from "~/server/platform/http.server";
import { toast } from "~/server/platform/toast.server";
import { editDeck, newOrderCode } from "~/server/services/deck.server";
import { transmit } from "~/server/services/orders.server";

export const meta: Route.MetaFunction = () => [{ title: "Review Order" }];

export async function action({ request, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  if (!user)
    return toast(context).redirect("/auth", { type: "error", message: TOAST_COPY.error, description: TOAST_COPY.userNotFound });
  const parsed = parseReviewIntent(await readForm(request));
  if (!parsed.ok)
    return refuseWithToast(
      context,
      400,
      parsed.unknownIntent ? { message: parsed.error } : { message: TOAST_COPY.error, description: parsed.error },
    );
  if (parsed.intent.intent === "options") {
    const edit = await editDeck(context, user.id, parsed.intent);
    if (!edit.ok) return refuseWithToast(context, 400, { message: TOAST_COPY.error, description: edit.error });
    return redirect("/review", { status: 303 });
  }
  if (parsed.intent.intent === "generate-code") {
    await newOrderCode(context, user.id);
    // The new code and Transmit under it, in view (the browser scrolls to the fragment, React Router too).
    return redirect(`/review#${ORDER_STEPS}`, { status: 303 });
  }
  const outcome = await transmit(context, backendOf(context), user, parsed.intent.code);
  // Refused, the answer stands in the Transmit step, where it was pressed (not a toast over the dialog's Close).
  if (!outcome.ok)
    return refuseWithToast(context, outcome.status, {
      message: outcome.title,
      description: outcome.message,
      place: TRANSMIT_ANSWER_PLACE,
    });
  return toast(context).redirect(
    `/?placed=${parsed.intent.code}`,
    { type: "success", ...TOAST_COPY.orderSubmitted },
    { status: 303 },
  );
}

export const clientAction = ({ serverAction }: Route.ClientActionArgs) => inTurn(serverAction);

const ORDER_STEPS = "order-steps";

export default function ReviewDialog() {
  // Each deck edit carries the deck cookie, so the code and the transmit wait for them.
  const { deck, busy } = useOptimisticDeck();
  const root = useRootData();
  const shop = root?.shop;
  const navigate = useNavigate();
  const dialog = useRef<HTMLDialogElement>(null);
  const generating = useIsPending({ intent: "generate-code" });
  const transmitting = useIsPending({ intent: "transmit" });
  const catalogue = useCatalogue();
  const design = findDesign(catalogue, deck.design);
  const songs = deck.songs.map((id) => findSong(catalogue, id)!).filter(Boolean);
  const options = optionLabels(deck.toggles, shop?.mixerName ?? "");
  const answer = root?.toast?.place === TRANSMIT_ANSWER_PLACE ? root.toast : null;

  useEffect(() => {
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
            {REVIEW_COPY.title}
          </h2>
          {/* A dialog's first focus is its close control, also without JavaScript; a refused transmit's answer takes it. */}
          <Link
            to="/"
            preventScrollReset
            className="btn-ghost"
            aria-label={`${REVIEW_COPY.close} review`}
            // eslint-disable-next-line jsx-a11y/no-autofocus
            autoFocus={answer ? undefined : true}
          >
            {REVIEW_COPY.close}
          </Link>
        </div>

        <div className="mt-4 grid gap-5 sm:grid-cols-[12rem_minmax(0,1fr)]">
          <div>
            <h3 className="label">{REVIEW_COPY.design}</h3>
            {design ? (
              <figure>
                <img
                  src={design.image}
                  alt={`Cover design: ${design.name}`}
                  width={320}
                  height={200}
                  className="w-full rounded-md"
                />
                <figcaption className="mt-1 font-display text-sm font-bold uppercase" data-testid="review-design">
                  {design.name}
                </figcaption>
              </figure>
            ) : (
              <>
                <figure>
                  <div className="flex aspect-[8/5] w-full items-center justify-center rounded-md border-2 border-dashed border-line font-display text-sm text-muted">
                    {REVIEW_COPY.noDesign}
                  </div>
                  <figcaption className="mt-1 font-display text-sm font-bold uppercase" data-testid="review-design">
                    {REVIEW_COPY.none}
                  </figcaption>
                </figure>
                <div className="mt-2 rounded-md border-2 border-acid px-3 py-2 text-sm" data-testid="review-no-design">
                  <p>{REVIEW_COPY.noDesignChosen}</p>
                  <Link to="/#designs" className="btn-ghost mt-2 w-full border-acid text-acid">
                    {REVIEW_COPY.chooseCover}
                  </Link>
                </div>
              </>
            )}
          </div>

          <div>
            <h3 className="label">{REVIEW_COPY.summary}</h3>
            <dl className="space-y-2 text-sm">
              <div className="flex justify-between gap-3">
                <dt className="text-muted">{HOME_COPY.codename}</dt>
                <dd className="font-display font-bold text-acid" data-testid="review-codename">
                  {deck.codename}
                </dd>
              </div>
              <div>
                <dt className="text-muted">{REVIEW_COPY.tracks}</dt>
                <dd>
                  <ol className="mt-1 list-decimal space-y-0.5 pl-6" data-testid="review-tracks">
                    {songs.map((s) => (
                      <li key={s.id}>
                        {s.title}
                        {s.active ? null : <span className="ml-2 text-xs text-signal">({HOME_COPY.retiredMark})</span>}
                      </li>
                    ))}
                  </ol>
                </dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt className="text-muted">{REVIEW_COPY.options}</dt>
                <dd className="text-right" data-testid="review-options">
                  {options.length ? options.join(", ") : REVIEW_COPY.none}
                </dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt className="text-muted">{REVIEW_COPY.note}</dt>
                <dd className="min-w-0 break-words text-right" data-testid="review-note">
                  {deck.note || REVIEW_COPY.none}
                </dd>
              </div>
              <div className="flex flex-wrap justify-between gap-x-3 border-t border-line pt-2">
                <dt className="text-muted">{REVIEW_COPY.total}</dt>
                <dd className="font-display font-bold">{REVIEW_COPY.totalValue}</dd>
                {shop?.priceNote ? (
                  <dd className="w-full text-right text-xs text-muted" data-testid="price-note">
                    {shop.priceNote}
                  </dd>
                ) : null}
              </div>
              <div className="flex justify-between gap-3">
                <dt className="text-muted">{REVIEW_COPY.delivery}</dt>
                <dd className="font-display font-bold">{REVIEW_COPY.deliveryValue}</dd>
              </div>
            </dl>
          </div>
        </div>

        <ol id={ORDER_STEPS} className="mt-6 scroll-mt-4 space-y-3">
          <li className="rounded-lg border border-line p-3">
            <p className="label">1. {REVIEW_COPY.orderCode}</p>
            <div className="flex flex-wrap items-center gap-3">
              <Form method="post" action="/review" preventScrollReset>
                <input type="hidden" name="intent" value="generate-code" />
                <button type="submit" className="btn-ghost" disabled={busy || generating || transmitting}>
                  {deck.code ? REVIEW_COPY.regenerateCode : REVIEW_COPY.generateCode}
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
              <button
                type="submit"
                className="btn-primary"
                disabled={busy || !deck.code || transmitting}
                aria-describedby={deck.code ? undefined : "transmit-reason"}
              >
                {transmitting ? REVIEW_COPY.transmitting : REVIEW_COPY.transmit}
              </button>
            </Form>
            {deck.code ? null : (
              <p id="transmit-reason" className="mt-2 text-sm text-muted" data-testid="transmit-reason">
                {REVIEW_COPY.codeRequired}
              </p>
            )}
            <CardAnswer
              answer={answer?.message ?? null}
              id={answer?.id}
              description={answer?.description}
              refusal={answer?.type === "error"}
              className="mt-2"
              testId="transmit-answer"
            />
          </li>
          <li className="rounded-lg border border-line p-3">
            <p className="label">3. Pay</p>
            {/* Live only for a transmitted order: the placed order and the order's page carry the link. */}
            <p className="flex flex-wrap items-center gap-3" data-testid="pay-later">
              <span className="btn border-dashed border-line text-muted">{REVIEW_COPY.payNow}</span>
              <span className="text-sm text-muted">{REVIEW_COPY.payLater}</span>
            </p>
          </li>
        </ol>
      </div>
      {/* Open, the dialog is the top layer: its answers show in it, not under it. */}
      <DialogToasts />
    </dialog>
  );
}
