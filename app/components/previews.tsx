import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { HOME_COPY } from "~/domain/copy-home";
import { useHydrated } from "./use-hydrated";

type Ctx = {
  playing: string | null;
  register(id: string, el: HTMLAudioElement | null): void;
  toggle(id: string, src?: string): void;
  setPlaying: React.Dispatch<React.SetStateAction<string | null>>;
};
const PreviewContext = createContext<Ctx | null>(null);

function stopAllBut(els: Map<string, HTMLAudioElement>, keep: string) {
  for (const [id, el] of els) {
    if (id !== keep && !el.paused) {
      el.pause();
      el.currentTime = 0;
    }
  }
}

export function PreviewProvider({ children }: { children: ReactNode }) {
  const els = useRef(new Map<string, HTMLAudioElement>());
  const [playing, setPlaying] = useState<string | null>(null);
  const register = useCallback((id: string, el: HTMLAudioElement | null) => {
    if (el) els.current.set(id, el);
    else els.current.delete(id);
  }, []);
  /** A link preview has no element of its own: one is made at its first play. */
  const elementFor = useCallback((id: string, src?: string) => {
    const known = els.current.get(id);
    if (known || !src) return known;
    const el = new Audio(src);
    el.addEventListener("play", () => setPlaying(id));
    const stopped = () => setPlaying((p) => (p === id ? null : p));
    el.addEventListener("pause", stopped);
    el.addEventListener("ended", stopped);
    els.current.set(id, el);
    return el;
  }, []);
  const toggle = useCallback(
    (id: string, src?: string) => {
      const el = elementFor(id, src);
      if (!el) return;
      if (!el.paused) {
        el.pause();
        return;
      }
      stopAllBut(els.current, id);
      void el.play().catch(() => setPlaying(null));
    },
    [elementFor],
  );
  const value = useMemo(() => ({ playing, register, toggle, setPlaying }), [playing, register, toggle]);
  return <PreviewContext.Provider value={value}>{children}</PreviewContext.Provider>;
}

export function PreviewControl({
  id,
  title,
  src,
  disabled,
  className = "",
  fallback = "player",
}: {
  id: string;
  title: string;
  src: string;
  disabled: boolean;
  /** "w-44" keeps the native controls' width once hydrated, so nothing beside it moves. */
  className?: string;
  /**
   * Without JavaScript: the browser's own player; a link to the file (in a long list each player is layout work);
   * or a disclosure that shows the player when opened (one Tab stop until then, where a player takes three).
   */
  fallback?: "player" | "link" | "disclosure";
}) {
  const ctx = useContext(PreviewContext);
  const hydrated = useHydrated();
  const isPlaying = ctx?.playing === id;
  const label = `${isPlaying ? HOME_COPY.pause : HOME_COPY.play}: ${title}`;
  if (fallback === "link" && !hydrated) {
    return (
      <div className={`flex h-11 items-center ${className}`}>
        <a href={src} className="btn-small h-11 w-11" aria-label={label} data-testid={`preview-${id}-link`}>
          <PlayIcon />
        </a>
      </div>
    );
  }
  if (disabled) {
    return (
      <button
        type="button"
        className="btn-small h-11 w-11"
        disabled
        aria-label={`${HOME_COPY.play}: ${title}`}
        title={HOME_COPY.mixtapeFull}
      >
        <PlayIcon />
      </button>
    );
  }
  return (
    <div className={`flex h-11 items-center ${className}`}>
      {fallback === "disclosure" && !hydrated ? (
        // Its player is the next sibling, not its content: the same element before and after hydration, so a preview
        // started before the scripts ran plays on. Closed, the player is not displayed, so not a Tab stop.
        <details className="group peer shrink-0">
          <summary
            className="btn-small h-11 w-11 cursor-pointer list-none [&::-webkit-details-marker]:hidden"
            aria-label={`${HOME_COPY.play}: ${title}`}
            data-testid={`preview-${id}-open`}
          >
            <span className="group-open:hidden">
              <PlayIcon />
            </span>
            <span className="hidden group-open:inline">
              <CloseIcon />
            </span>
          </summary>
        </details>
      ) : null}
      {fallback !== "link" ? (
        // Instrumental previews: the song title beside them is their text alternative.
        // eslint-disable-next-line jsx-a11y/media-has-caption
        <audio
          ref={(el) => ctx?.register(id, el)}
          src={src}
          preload="none"
          controls={!hydrated}
          aria-label={`${HOME_COPY.play}: ${title}`}
          className={
            hydrated
              ? "hidden"
              : fallback === "disclosure"
                ? "ml-2 hidden h-11 min-w-0 flex-1 peer-open:block"
                : "h-11 w-44 max-w-full"
          }
          onPlay={() => ctx?.setPlaying(id)}
          onPause={() => ctx?.setPlaying((p) => (p === id ? null : p))}
          onEnded={() => ctx?.setPlaying((p) => (p === id ? null : p))}
        />
      ) : null}
      {hydrated ? (
        <button
          type="button"
          className={`btn-small h-11 w-11 ${isPlaying ? "border-acid text-acid" : ""}`}
          aria-label={label}
          aria-pressed={isPlaying}
          data-testid={`preview-${id}`}
          onClick={() => ctx?.toggle(id, fallback === "link" ? src : undefined)}
        >
          {isPlaying ? <PauseIcon /> : <PlayIcon />}
        </button>
      ) : null}
    </div>
  );
}

const PlayIcon = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
    <path d="M7 4.5v15l13-7.5z" />
  </svg>
);
const CloseIcon = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="3">
    <path d="M6 6l12 12M18 6L6 18" />
  </svg>
);
const PauseIcon = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
    <path d="M6 4h4v16H6zM14 4h4v16h-4z" />
  </svg>
);
