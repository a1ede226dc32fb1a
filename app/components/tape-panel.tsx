import { DROP_COPY } from "~/domain/copy-orders";
import { formatDuration, formatSize, type ShopperTape } from "~/domain/tape";
import { LocalTime } from "./local-time";

/** "Downloaded N times", and when last, in the reader's own time. */
export function TapeDownloads({ downloads, lastAt }: { downloads: number; lastAt: string | null }) {
  return (
    <>
      {DROP_COPY.downloads(downloads)}
      {lastAt ? (
        <>
          , {DROP_COPY.lastDownload} <LocalTime iso={lastAt} />
        </>
      ) : null}
    </>
  );
}

/**
 * The shopper's tape: a player that seeks (HTTP ranges) and a download link, both without
 * JavaScript; once its days are over, a way to ask for it again.
 */
export function TapePanel({
  code,
  codename,
  tape,
  keepDays,
}: {
  code: string;
  codename: string | null;
  tape: ShopperTape;
  keepDays: number;
}) {
  const src = `/my-mixtapes/${code}/tape`;
  return (
    <section
      id="tape"
      aria-labelledby="tape-heading"
      className="mt-4 scroll-mt-24 rounded-lg border-2 border-teal p-3 sm:p-4"
      data-testid="tape-panel"
    >
      <h2 id="tape-heading" className="font-display text-lg font-bold uppercase tracking-wider text-teal">
        {DROP_COPY.yourTape}
      </h2>
      {tape.deleted ? (
        <p className="mt-2 text-sm" data-testid="tape-deleted">
          {DROP_COPY.deleted(keepDays)}{" "}
          <a href="#messages" className="font-bold text-acid underline">
            {DROP_COPY.askAgain}
          </a>{" "}
          {DROP_COPY.askAgainText}
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm">
            {codename ? <span className="font-display font-bold uppercase">{codename}</span> : null}
            <span className="text-muted">
              {codename ? " · " : ""}
              {DROP_COPY.duration} {formatDuration(tape.durationSeconds)} · {DROP_COPY.size} {formatSize(tape.size)}
            </span>
          </p>
          {/* eslint-disable-next-line jsx-a11y/media-has-caption -- a DJ mix: music, no words to caption */}
          <audio
            controls
            preload="none"
            src={src}
            className="mt-3 w-full"
            data-testid="tape-player"
            aria-label={DROP_COPY.yourTape}
          />
          <p className="mt-3">
            <a href={`${src}?download`} download className="btn-primary" data-testid="tape-download">
              {DROP_COPY.download}
            </a>
          </p>
        </>
      )}
    </section>
  );
}
