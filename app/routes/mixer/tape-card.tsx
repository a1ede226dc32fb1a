import { Form, useNavigation } from "react-router";
import { StatusButton } from "~/components/forms";
import { DROP_COPY } from "~/domain/copy-orders";
import { formatDuration, formatSize, mayReplaceTape, type ShownTape } from "~/domain/tape";
import { formatPlaced } from "~/domain/text";

/**
 * The order's tape, for the mixer: what is stored and who heard it, and the upload. The form is
 * plain HTML (a multipart post the server streams to the store), so it works without JavaScript.
 */
export function TapeCard({
  code,
  open,
  tape,
  maxMb,
  refused,
}: {
  code: string;
  /** Received or mixing: the tape may still change. */
  open: boolean;
  tape: ShownTape | null;
  maxMb: number;
  refused: string | null;
}) {
  const navigation = useNavigation();
  const uploading = navigation.state === "submitting" && navigation.formEncType === "multipart/form-data";
  const canUpload = open && mayReplaceTape(tape);
  return (
    <section id="tape" aria-labelledby="tape-heading" className="card scroll-mt-24 p-4 sm:p-6" data-testid="tape-card">
      <h2 id="tape-heading" className="font-display text-xl font-bold uppercase tracking-wider text-acid">
        {DROP_COPY.tape}
      </h2>
      {tape && !tape.deleted ? (
        <>
          <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[6rem_minmax(0,1fr)]" data-testid="tape-facts">
            <dt className="text-muted">{DROP_COPY.file}</dt>
            <dd className="min-w-0 break-all">{tape.fileName}</dd>
            <dt className="text-muted">{DROP_COPY.duration}</dt>
            <dd>{formatDuration(tape.durationSeconds)}</dd>
            <dt className="text-muted">{DROP_COPY.size}</dt>
            <dd>{formatSize(tape.size)}</dd>
          </dl>
          <p className="mt-2 text-sm" data-testid="tape-downloads">
            {DROP_COPY.downloads(tape.downloads)}
            {tape.lastDownloadedAt ? `, ${DROP_COPY.lastDownload(formatPlaced(tape.lastDownloadedAt))}` : ""}
          </p>
          {/* eslint-disable-next-line jsx-a11y/media-has-caption -- a DJ mix: music, no words to caption */}
          <audio controls preload="none" src={`/mixer/orders/${code}/tape`} className="mt-3 w-full" aria-label={DROP_COPY.tape} />
        </>
      ) : (
        <p className="mt-2 text-sm text-muted">{DROP_COPY.noTapeYet}</p>
      )}
      {canUpload ? (
        <Form
          method="post"
          action={`/mixer/orders/${code}`}
          encType="multipart/form-data"
          reloadDocument
          className="mt-4 flex flex-wrap items-end gap-3 border-t border-line pt-3"
        >
          <div>
            <label className="label" htmlFor={`tape-${code}`}>
              {DROP_COPY.uploadLabel}
            </label>
            <input
              id={`tape-${code}`}
              name="tape"
              type="file"
              required
              accept="audio/mpeg,audio/mp4,audio/ogg,audio/flac,audio/wav,.mp3,.m4a,.aac,.ogg,.opus,.flac,.wav"
              aria-describedby={`tape-${code}-hint${refused ? ` tape-${code}-problem` : ""}`}
              className="field max-w-full"
            />
            <p id={`tape-${code}-hint`} className="mt-1 text-xs text-muted">
              {DROP_COPY.uploadHint(maxMb)} {tape && !tape.deleted ? DROP_COPY.replaceHint : ""}
            </p>
          </div>
          <StatusButton pending={uploading} pendingLabel={DROP_COPY.uploading} className="btn-primary">
            {DROP_COPY.upload}
          </StatusButton>
          {refused ? (
            <p
              id={`tape-${code}-problem`}
              role="alert"
              className="w-full rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm"
              data-testid="tape-problem"
            >
              {refused}
            </p>
          ) : null}
        </Form>
      ) : null}
    </section>
  );
}
