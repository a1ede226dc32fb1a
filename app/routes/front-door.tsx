import { PreviewControl, PreviewProvider } from "~/components/previews";
import type { Design, Song } from "~/domain/catalogue";
import { FRONT_COPY } from "~/domain/copy-auth";
import { TOGGLE_COPY } from "~/domain/copy-home";
import { REVIEW_COPY } from "~/domain/copy-review";
import { TOGGLE_KEYS } from "~/domain/deck";

export type Door = { open: true } | { open: false; heading: string; text: string } | null;

/** The preview plays without JavaScript too, through a link to its file. designs, preview: the shop's, on sale now. */
export function FrontDoor({
  door,
  title,
  mixer,
  priceNote,
  designs,
  preview,
}: {
  door: Door;
  title: string;
  mixer: string;
  priceNote: string;
  designs: readonly Design[];
  preview: Song | null;
}) {
  const options = TOGGLE_KEYS.map((key) => TOGGLE_COPY[key](mixer));
  return (
    <section aria-labelledby="front-heading" className="min-w-0 space-y-5" data-testid="front-door">
      <div>
        {/* The header above says the shop's title too; a phone's first screen keeps room for the pitch. */}
        <p className="hidden font-display text-sm font-bold uppercase tracking-[0.2em] text-muted lg:block">{title}</p>
        <h2 id="front-heading" className="font-display text-xl font-bold leading-snug text-acid sm:text-2xl lg:mt-1">
          {FRONT_COPY.lede(mixer)}
        </h2>
        <ShopState door={door} />
      </div>

      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_auto]">
        <div>
          <h3 className="label">{FRONT_COPY.whatYouGet}</h3>
          <ul className="list-[square] space-y-1.5 pl-5 text-sm marker:text-signal" data-testid="front-perks">
            {FRONT_COPY.perks(mixer, options).map((perk) => (
              <li key={perk}>{perk}</li>
            ))}
          </ul>
        </div>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-1 sm:content-start">
          <div className="card px-4 py-2">
            <dt className="font-display text-xs font-bold uppercase tracking-wide text-muted">{REVIEW_COPY.total}</dt>
            <dd className="font-display text-2xl font-bold text-acid" data-testid="front-total">
              {REVIEW_COPY.totalValue}
            </dd>
            {priceNote ? (
              <dd className="text-xs text-muted" data-testid="front-price-note">
                {priceNote}
              </dd>
            ) : null}
          </div>
          <div className="card px-4 py-2">
            <dt className="font-display text-xs font-bold uppercase tracking-wide text-muted">{REVIEW_COPY.delivery}</dt>
            <dd className="font-display text-2xl font-bold text-acid" data-testid="front-delivery">
              {REVIEW_COPY.deliveryValue}
            </dd>
          </div>
        </dl>
      </div>

      <div>
        <h3 className="label">{FRONT_COPY.designs}</h3>
        <ul className="grid grid-cols-4 gap-2" data-testid="front-designs">
          {designs.map((design) => (
            <li key={design.id} className="min-w-0">
              <figure>
                {/* The hero image is the largest paint: these wait until the page is laid out. */}
                <img
                  src={design.image}
                  alt=""
                  width={320}
                  height={200}
                  loading="lazy"
                  decoding="async"
                  className="aspect-[8/5] w-full rounded-md"
                />
                <figcaption className="mt-1 font-display text-xs font-bold uppercase leading-tight">{design.name}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>

      {preview ? (
        <div>
          <h3 className="label">{FRONT_COPY.preview}</h3>
          <div className="card flex items-center gap-3 p-3" data-testid="front-preview">
            <img
              src={preview.thumbnail}
              alt=""
              width={48}
              height={48}
              loading="lazy"
              decoding="async"
              className="h-12 w-12 shrink-0 rounded-md"
            />
            <p className="min-w-0 flex-1 font-bold leading-snug">{preview.title}</p>
            <PreviewProvider>
              <PreviewControl id="front" title={preview.title} src={preview.previewUrl} disabled={false} fallback="link" />
            </PreviewProvider>
          </div>
        </div>
      ) : null}
    </section>
  );
}

function ShopState({ door }: { door: Door }) {
  if (!door) return null;
  if (door.open)
    return (
      <p
        className="mt-3 inline-flex flex-wrap items-center gap-x-2 rounded-full border-2 border-teal px-3 py-1 text-sm"
        data-testid="front-shop"
      >
        <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-teal" />
        <strong className="font-display uppercase">{FRONT_COPY.open}</strong>
        <span className="text-muted">{FRONT_COPY.openText}</span>
      </p>
    );
  return (
    <div className="mt-3 rounded-xl border-2 border-signal bg-panel px-3 py-2" data-testid="front-shop">
      <p className="font-display font-bold uppercase text-signal">{door.heading}</p>
      {door.text ? <p className="mt-1 whitespace-pre-wrap break-words text-sm">{door.text}</p> : null}
    </div>
  );
}
