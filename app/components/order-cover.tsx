import type { ReactNode } from "react";
import { REVIEW_COPY } from "~/domain/copy-review";

const SIZES = {
  small: { box: "w-28", width: 112, height: 70 },
  large: { box: "w-40", width: 160, height: 100 },
} as const;

/** A placed order's cover: its design's art as it was sold, or the dashed "no design" stand-in; the caption names it. */
export function OrderCover({
  design,
  size,
  caption = (name) => name,
}: {
  design: { name: string; image: string } | null;
  size: keyof typeof SIZES;
  caption?: (name: string) => ReactNode;
}) {
  const { box, width, height } = SIZES[size];
  return (
    <figure className={box} data-testid="order-design">
      {design ? (
        <img src={design.image} alt="" width={width} height={height} loading="lazy" className={`${box} rounded-md`} />
      ) : (
        <div
          className={`flex aspect-[8/5] ${box} items-center justify-center rounded-md border-2 border-dashed border-line text-xs text-muted`}
        >
          {REVIEW_COPY.noDesign}
        </div>
      )}
      <figcaption className="mt-1 font-display text-xs font-bold uppercase">
        {caption(design?.name ?? REVIEW_COPY.none)}
      </figcaption>
    </figure>
  );
}
