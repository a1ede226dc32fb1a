import { memo } from "react";
import type { StoredTrack } from "~/domain/orders";
import { PreviewControl } from "./previews";

/** An order's numbered tracks, each with its preview; memoised: sending a message re-renders the page, not the list. */
export const TrackList = memo(function TrackList({
  code,
  tracks,
  thumbnails = false,
  label,
  className = "",
  previews = "player",
}: {
  code: string;
  tracks: StoredTrack[];
  thumbnails?: boolean;
  label?: string;
  className?: string;
  previews?: "player" | "link";
}) {
  return (
    <ol className={`space-y-1 ${className}`} aria-label={label} data-testid="order-tracks">
      {tracks.map((track, i) => (
        <li key={`${track.id}-${i}`} className="flex items-center gap-2 text-sm">
          <span className="w-6 shrink-0 text-right font-display text-muted">{i + 1}.</span>
          {thumbnails ? (
            <img
              src={track.thumbnail}
              alt=""
              width={32}
              height={32}
              loading="lazy"
              className="hidden h-8 w-8 shrink-0 rounded sm:block"
            />
          ) : null}
          <span className="min-w-0 flex-1 font-bold">{track.title}</span>
          {/* The native player's width, its button at the end: the swap at hydration moves nothing (a link is the button's size). */}
          <PreviewControl
            id={`${code}-${i}`}
            title={track.title}
            src={track.previewUrl}
            disabled={false}
            className={previews === "player" ? "w-44 shrink-0 justify-end" : "shrink-0"}
            fallback={previews}
          />
        </li>
      ))}
    </ol>
  );
});
