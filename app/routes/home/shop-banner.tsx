/** The shop takes no orders now: closed (with the mixer's words) or full. Building and reviewing still work. */
export function ShopBanner({ heading, text }: { heading: string; text: string }) {
  return (
    <section
      aria-labelledby="shop-banner-heading"
      className="mb-6 rounded-xl border-2 border-signal bg-panel p-4"
      data-testid="shop-banner"
    >
      <h2 id="shop-banner-heading" className="font-display text-lg font-bold uppercase tracking-wider text-signal">
        {heading}
      </h2>
      {text ? <p className="mt-1 whitespace-pre-wrap break-words">{text}</p> : null}
    </section>
  );
}
