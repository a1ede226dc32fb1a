// One file of a catalogue form. Without JavaScript it is a plain file input, sent with the form
// (multipart) and checked by the server as it streams in. With JavaScript the file goes as soon as it
// is chosen, with its progress shown (XMLHttpRequest reports upload progress; fetch does not), to
// /mixer/catalogue/media, and the form names the stored file in a hidden field. A file stored by a
// refused save stays named there too, so nothing chosen is lost.
import { useId, useRef, useState } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { CATALOGUE_COPY } from "~/domain/copy-catalogue";

export type MediaKind = "preview" | "thumbnail" | "design" | "cover";

const ACCEPT = { audio: "audio/*,.mp3,.m4a,.ogg,.opus,.flac,.wav", image: "image/jpeg,image/png,image/webp,image/avif" };

type Upload = { state: "idle" } | { state: "sending"; percent: number } | { state: "failed"; message: string };

export function MediaField({
  kind,
  label,
  fileField,
  urlField,
  current,
  staged,
  stagedColour,
  error,
  required = false,
  onBusy,
}: {
  kind: MediaKind;
  label: string;
  /** The file input's name (without JavaScript) and the hidden field naming a stored file. */
  fileField: string;
  urlField: string;
  /** The file the row has now (shown beside), and one stored but not saved yet. */
  current: string | null;
  staged: string;
  stagedColour?: string;
  error?: string;
  /** No current file to keep: one must be chosen. */
  required?: boolean;
  onBusy?: (busy: boolean) => void;
}) {
  const id = useId();
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  const [named, setNamed] = useState({ url: staged, colour: stagedColour ?? "", fileName: "" });
  const [upload, setUpload] = useState<Upload>({ state: "idle" });
  const audio = kind === "preview";
  const message = upload.state === "failed" ? upload.message : error;
  const described = [`${id}-hint`, message ? `${id}-error` : null].filter(Boolean).join(" ");

  function send(file: File) {
    const body = new FormData();
    body.set("file", file);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/mixer/catalogue/media?kind=${kind}`);
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) setUpload({ state: "sending", percent: Math.round((e.loaded / e.total) * 100) });
    };
    const settle = (next: Upload) => {
      setUpload(next);
      onBusy?.(false);
      if (input.current) input.current.value = "";
    };
    xhr.onload = () => {
      const answer = xhr.response as { ok?: boolean; url?: string; colour?: string | null; message?: string } | null;
      if (xhr.status === 200 && answer?.ok && answer.url) {
        setNamed({ url: answer.url, colour: answer.colour ?? "", fileName: file.name });
        settle({ state: "idle" });
      } else settle({ state: "failed", message: answer?.message ?? CATALOGUE_COPY.uploadFailed });
    };
    xhr.onerror = () => settle({ state: "failed", message: CATALOGUE_COPY.uploadFailed });
    onBusy?.(true);
    setUpload({ state: "sending", percent: 0 });
    xhr.send(body);
  }

  return (
    <div data-testid={`media-${kind}`}>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-3">
        {current ? <Media audio={audio} src={current} label={`${CATALOGUE_COPY.current}: ${label}`} /> : null}
        <input
          ref={input}
          id={id}
          type="file"
          // With JavaScript the file goes on its own (send); the form carries only its name.
          name={hydrated ? undefined : fileField}
          accept={audio ? ACCEPT.audio : ACCEPT.image}
          aria-describedby={described}
          aria-invalid={message ? true : undefined}
          className="min-w-0 max-w-full text-sm file:btn-ghost file:mr-3"
          disabled={upload.state === "sending"}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            if (hydrated && file) send(file);
          }}
        />
      </div>
      <input type="hidden" name={urlField} value={named.url} />
      {kind === "design" ? <input type="hidden" name="colour" value={named.colour} /> : null}
      <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
        {audio
          ? required
            ? CATALOGUE_COPY.previewHintRequired
            : CATALOGUE_COPY.previewHint
          : required
            ? CATALOGUE_COPY.imageHintRequired
            : CATALOGUE_COPY.imageHint}
      </p>
      {upload.state === "sending" ? (
        <div className="mt-2" data-testid="upload-progress">
          <progress
            className="w-full accent-acid"
            max={100}
            value={upload.percent}
            aria-label={CATALOGUE_COPY.uploading(upload.percent)}
          />
          <p className="text-xs text-muted" aria-live="polite">
            {CATALOGUE_COPY.uploading(upload.percent)}
          </p>
        </div>
      ) : null}
      {named.url ? (
        <div className="mt-2 flex flex-wrap items-center gap-3 text-sm text-teal" data-testid="media-ready">
          <Media audio={audio} src={named.url} label={label} />
          <span>{CATALOGUE_COPY.newFileReady(named.fileName || named.url.split("/").pop()!)}</span>
        </div>
      ) : null}
      {message ? (
        <p
          id={`${id}-error`}
          role="alert"
          className="mt-2 rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm"
          data-testid="media-error"
        >
          {message}
        </p>
      ) : null}
    </div>
  );
}

function Media({ audio, src, label }: { audio: boolean; src: string; label: string }) {
  // A song's preview is music: there is no speech to caption.
  // eslint-disable-next-line jsx-a11y/media-has-caption
  if (audio) return <audio controls preload="none" src={src} aria-label={label} className="h-10 w-56 max-w-full" />;
  return <img src={src} alt="" width={64} height={64} className="h-16 w-16 rounded-md object-cover" />;
}
