import { useCallback, useEffect, useRef, useSyncExternalStore, type FormEvent } from "react";
import { Form, useNavigation, useRevalidator } from "react-router";
import { StatusButton } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { TapeDownloads } from "~/components/tape-panel";
import { useHydrated } from "~/components/use-hydrated";
import { DROP_COPY } from "~/domain/copy-orders";
import { formatDuration, formatSize, type MixerTape, type TapeUpload } from "~/domain/tape";
import { timeLeftWords } from "~/domain/time";
import { unfinishedUpload, useTusUpload, type TusState } from "./tus-upload";

const onStorage = (changed: () => void) => {
  window.addEventListener("storage", changed);
  return () => window.removeEventListener("storage", changed);
};

/**
 * The order's tape, for the mixer: what is stored and who heard it, and the upload. The form is
 * plain HTML (a multipart post the server streams to the store), so it works without JavaScript;
 * once the page is hydrated, Upload sends the file with tus instead (resumable, with progress and
 * Cancel), and the plain post stays the fallback.
 */
export function TapeCard({
  code,
  open,
  upload,
  tape,
  maxMb,
  refused,
  answered = null,
}: {
  code: string;
  /** Received or mixing: the tape is a draft. */
  open: boolean;
  /** What an upload does now (tapeUpload of app/domain/tape.ts). */
  upload: TapeUpload;
  tape: MixerTape | null;
  maxMb: number;
  refused: string | null;
  /** The answer to a plain form's upload (the page's toast with the Tape card's place). */
  answered?: string | null;
}) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const revalidate = useCallback(() => void revalidator.revalidate(), [revalidator]);
  const { state, start, cancel, refuse } = useTusUpload(code, revalidate);
  const answer = useRef<HTMLParagraphElement>(null);
  // Read again at each render (an upload's phase changes it) and when another tab writes it; none on the server.
  const unfinished = useSyncExternalStore(
    onStorage,
    () => unfinishedUpload(code),
    () => null,
  );
  // The answer in view (a phone scrolled to the file field); it takes the focus the disabled Upload button lost.
  useEffect(() => {
    if (state.phase === "done" || state.phase === "refused") answer.current?.scrollIntoView?.({ block: "nearest" });
    if (state.phase === "done" && (document.activeElement === document.body || document.activeElement === null))
      answer.current?.focus();
  }, [state.phase]);
  const sending = state.phase === "uploading";
  const uploading = sending || (navigation.state === "submitting" && navigation.formEncType === "multipart/form-data");
  const canUpload = upload !== "closed";
  const newVersion = upload === "new-version";
  const problem = state.phase === "refused" ? state.message : state.phase === "idle" ? refused : null;

  /** With JavaScript: tus. Without it (or when tus cannot start) the browser posts the form as it is. */
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const file = (form.elements.namedItem("tape") as HTMLInputElement | null)?.files?.[0];
    if (!file) return;
    event.preventDefault();
    if (file.size > maxMb * 1024 * 1024) return refuse(DROP_COPY.tooLarge(maxMb * 1024 * 1024));
    if (!(await start(file, { failed: DROP_COPY.uploadFailed }))) form.submit();
  };
  return (
    <section id="tape" aria-labelledby="tape-heading" className="card scroll-mt-24 p-4 sm:p-6" data-testid="tape-card">
      <h2 id="tape-heading" className="font-display text-xl font-bold uppercase tracking-wider text-acid">
        {DROP_COPY.tape}
      </h2>
      {/* The outcome of an upload with JavaScript, read out and kept in view (the page revalidated behind it). */}
      <p
        ref={state.phase === "done" ? answer : undefined}
        role="status"
        tabIndex={-1}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the answer to the mixer's own upload (a plain form's), where it acted
        autoFocus={state.phase === "idle" && answered && !refused ? true : undefined}
        className="empty:hidden"
        data-testid="tape-answer"
      >
        {state.phase === "done" || state.phase === "cancelled" || (state.phase === "idle" && answered && !refused) ? (
          <span className="mt-2 block rounded-lg border-2 border-teal bg-panel px-4 py-3 font-display font-bold shadow-lg">
            {state.phase === "done" ? state.message : state.phase === "cancelled" ? DROP_COPY.cancelled : answered}
          </span>
        ) : null}
      </p>
      {tape && !tape.deleted ? (
        <>
          <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[6rem_minmax(0,1fr)]" data-testid="tape-facts">
            <dt className="text-muted">{DROP_COPY.file}</dt>
            <dd className="min-w-0 break-all">{tape.fileName}</dd>
            <dt className="text-muted">{DROP_COPY.duration}</dt>
            <dd>{formatDuration(tape.durationSeconds)}</dd>
            <dt className="text-muted">{DROP_COPY.size}</dt>
            <dd>{formatSize(tape.size)}</dd>
            {tape.version > 1 ? (
              <>
                <dt className="sr-only">{DROP_COPY.version(tape.version)}</dt>
                <dd className="sm:col-start-2" data-testid="tape-version">
                  {DROP_COPY.version(tape.version)}
                </dd>
              </>
            ) : null}
          </dl>
          {/* Until the drop is sent, only the mixers hear it (the draft rule is the database's). */}
          {open ? (
            <p className="mt-2 text-sm text-acid" data-testid="tape-draft">
              {DROP_COPY.draft}
            </p>
          ) : null}
          <p className="mt-2 text-sm" data-testid="tape-downloads">
            <TapeDownloads downloads={tape.downloads} lastAt={tape.lastDownloadedAt} />
          </p>
          {/* The shopper has it: why the form below makes a new version, and the other way forward. */}
          {newVersion ? (
            <p className="mt-2 rounded-md border border-line bg-panel-2 px-3 py-2 text-sm" data-testid="tape-locked">
              {tape.downloads > 0 && tape.lastDownloadedAt ? (
                <>
                  {DROP_COPY.downloadedOn} <LocalTime iso={tape.lastDownloadedAt} dateOnly />, {DROP_COPY.lockedDownloaded}
                </>
              ) : (
                DROP_COPY.lockedSent
              )}{" "}
              {DROP_COPY.lockedWayForward}{" "}
              <a href="#messages" className="font-bold text-acid underline">
                {DROP_COPY.sendMessage}
              </a>
            </p>
          ) : null}
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
          onSubmit={hydrated ? onSubmit : undefined}
          className="mt-4 flex flex-wrap items-end gap-3 border-t border-line pt-3"
          data-testid="tape-form"
          data-enhanced={hydrated ? "tus" : undefined}
        >
          <div>
            <label className="label" htmlFor={`tape-${code}`}>
              {newVersion ? DROP_COPY.newVersionLabel : DROP_COPY.uploadLabel}
            </label>
            <input
              id={`tape-${code}`}
              name="tape"
              type="file"
              required
              accept="audio/mpeg,audio/mp4,audio/ogg,audio/flac,audio/wav,.mp3,.m4a,.aac,.ogg,.opus,.flac,.wav"
              aria-describedby={`tape-${code}-hint${problem ? ` tape-${code}-problem` : ""}`}
              disabled={sending}
              className="field max-w-full"
            />
            <p id={`tape-${code}-hint`} className="mt-1 text-xs text-muted">
              {DROP_COPY.uploadHint(maxMb)} {upload === "replace" && tape && !tape.deleted ? DROP_COPY.replaceHint : ""}
            </p>
            {unfinished && !sending ? (
              <p className="mt-1 text-xs text-acid" data-testid="tape-unfinished">
                {DROP_COPY.unfinished(unfinished)}
              </p>
            ) : null}
          </div>
          <StatusButton pending={uploading} pendingLabel={DROP_COPY.uploading} className="btn-primary">
            {newVersion ? DROP_COPY.uploadNewVersion : DROP_COPY.upload}
          </StatusButton>
          {sending ? (
            <button type="button" className="btn-ghost" onClick={() => void cancel()} data-testid="tape-cancel">
              {DROP_COPY.cancel}
            </button>
          ) : null}
          {state.phase === "uploading" ? <TusProgress code={code} state={state} /> : null}
          {problem ? (
            <p
              ref={state.phase === "refused" ? answer : undefined}
              id={`tape-${code}-problem`}
              role="alert"
              className="w-full rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm"
              data-testid="tape-problem"
            >
              {problem}
            </p>
          ) : null}
        </Form>
      ) : null}
    </section>
  );
}

/** Bytes, percent and time left, as a labelled progress bar (its value read by assistive technology). */
function TusProgress({ code, state }: { code: string; state: Extract<TusState, { phase: "uploading" }> }) {
  const percent = state.total > 0 ? Math.floor((state.sent / state.total) * 100) : 0;
  const text = DROP_COPY.progress(formatSize(state.sent), formatSize(state.total), percent);
  return (
    <div className="w-full" data-testid="tape-progress">
      <p id={`tape-${code}-progress-label`} className="text-sm">
        {DROP_COPY.progressLabel}
      </p>
      <div
        role="progressbar"
        aria-labelledby={`tape-${code}-progress-label`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        className="mt-1 h-3 w-full overflow-hidden rounded-full border border-line bg-panel"
      >
        <div className="h-full bg-teal transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1 text-xs text-muted" data-testid="tape-progress-text">
        {text}
        {state.secondsLeft !== null && state.sent < state.total
          ? `, ${DROP_COPY.timeLeft(timeLeftWords(state.secondsLeft))}`
          : ""}
        {state.resumedFrom > 0 ? ` · ${DROP_COPY.resumed(formatSize(state.resumedFrom))}` : ""}
        {state.retrying ? ` · ${DROP_COPY.connectionLost}` : ""}
      </p>
    </div>
  );
}
