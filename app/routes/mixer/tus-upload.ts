// The Tape card's upload with JavaScript: tus (tus-js-client, loaded on first use), resumable after
// a dropped connection or a reload (the upload's URL is kept in localStorage under a fingerprint of
// the order and the file, so choosing the same file again goes on from the server's offset).
// Without JavaScript, or when tus cannot start, the card's plain form posts the file instead.
import { useCallback, useEffect, useRef, useState } from "react";
import type { DetailedError, Upload } from "tus-js-client";

/** Where the server's tus handler listens (server/app.ts; app/server/services/tus.server.ts). */
export const TUS_ENDPOINT = "/mixer/uploads";
/** One PATCH at most this large: a request never runs for minutes, and a dropped one loses little. */
const CHUNK_BYTES = 16 * 1024 * 1024;
/** tus-js-client's retries after a dropped connection or a busy server (then the mixer presses Upload again). */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000];
const FINGERPRINT_PREFIX = "mixtape-tape";

export type TusState =
  | { phase: "idle" }
  | { phase: "uploading"; sent: number; total: number; secondsLeft: number | null; resumedFrom: number; retrying: boolean }
  | { phase: "done"; message: string }
  | { phase: "refused"; message: string }
  | { phase: "cancelled" };

/** The order and the file: the same file chosen again for the same order resumes its upload. */
const fingerprintOf = (code: string, file: File) =>
  `${FINGERPRINT_PREFIX}:${code}:${file.size}:${file.lastModified}:${encodeURIComponent(file.name)}`;

/** tus-js-client's localStorage keys of this order's uploads: "tus::{fingerprint}::{n}". */
function storedUploads(code: string): { key: string; fingerprint: string; fileName: string; at: number }[] {
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? "";
      const match = key.match(new RegExp(`^tus::(${FINGERPRINT_PREFIX}:${code}:\\d+:\\d+:([^:]+))::`));
      if (!match) continue;
      const at = Date.parse((JSON.parse(localStorage.getItem(key) ?? "{}") as { creationTime?: string }).creationTime ?? "");
      found.push({ key, fingerprint: match[1], fileName: decodeURIComponent(match[2]), at: Number.isNaN(at) ? 0 : at });
    }
  } catch {
    // No storage (a private window), or an entry that is not ours: nothing to resume.
  }
  return found;
}

/**
 * The upload of this order that stopped before it finished in this browser (a dropped connection, a
 * reload, a closed tab): the newest, by its file's name. A refused, finished or cancelled upload is
 * forgotten at once (forgetUploads), so it is never named here.
 */
export function unfinishedUpload(code: string): string | null {
  return storedUploads(code).sort((a, b) => b.at - a.at)[0]?.fileName ?? null;
}

/** Forgets this order's stored uploads: all of them, or all but the one of `keep` (a fingerprint). */
function forgetUploads(code: string, keep?: string) {
  try {
    for (const stored of storedUploads(code)) if (stored.fingerprint !== keep) localStorage.removeItem(stored.key);
  } catch {
    // No storage: nothing was kept.
  }
}

/** The server's words on a refusal, or null when the request never got an answer (offline, cut). */
const answerOf = (error: Error | DetailedError) => {
  const response = "originalResponse" in error ? error.originalResponse : null;
  return response ? { status: response.getStatus(), text: response.getBody()?.trim() ?? "" } : null;
};

/** Retried: no answer (a dropped connection), a lock still held by the cut request, a proxy's 502/504. */
const worthRetrying = (error: DetailedError) => {
  const answer = answerOf(error);
  return !answer || answer.status === 423 || answer.status === 502 || answer.status === 504;
};

export function useTusUpload(code: string, onDone: () => void) {
  const [state, setState] = useState<TusState>({ phase: "idle" });
  // `cancelled`: Cancel came while the server was still creating the upload (no URL to delete yet).
  const upload = useRef<{ task: Upload; cancelled: boolean } | null>(null);
  useEffect(() => () => void upload.current?.task.abort(false), []);

  /** Starts (or resumes) the upload; false when tus cannot run here, so the plain form posts instead. */
  const start = useCallback(
    async (file: File, messages: { failed: string }): Promise<boolean> => {
      let tus: typeof import("tus-js-client");
      try {
        tus = await import("tus-js-client");
      } catch {
        return false;
      }
      if (!tus.isSupported) return false;
      // The rate is measured from the first progress event: after a resume, that is the server's offset.
      let began: { at: number; sent: number } | null = null;
      const current = { task: null as unknown as Upload, cancelled: false };
      const task = new tus.Upload(file, {
        endpoint: TUS_ENDPOINT,
        chunkSize: CHUNK_BYTES,
        retryDelays: RETRY_DELAYS,
        metadata: { code, filename: file.name },
        fingerprint: async () => fingerprintOf(code, file),
        removeFingerprintOnSuccess: true,
        // A Cancel during the creation deletes the upload as soon as it has a URL, before any byte goes.
        onUploadUrlAvailable() {
          if (current.cancelled)
            void task
              .abort(true)
              .catch(() => {})
              .finally(() => forgetUploads(code));
        },
        onShouldRetry: (error) => {
          const retry = worthRetrying(error);
          if (retry) setState((s) => (s.phase === "uploading" ? { ...s, retrying: true } : s));
          return retry;
        },
        onProgress(sent, total) {
          if (current.cancelled) return;
          const first = !began;
          began ??= { at: performance.now(), sent };
          const seconds = (performance.now() - began.at) / 1000;
          const rate = seconds > 1 ? (sent - began.sent) / seconds : 0;
          setState((s) => ({
            phase: "uploading",
            sent,
            total,
            secondsLeft: rate > 0 ? (total - sent) / rate : null,
            resumedFrom: first ? sent : s.phase === "uploading" ? s.resumedFrom : 0,
            retrying: false,
          }));
        },
        onSuccess({ lastResponse }) {
          if (current.cancelled) return;
          upload.current = null;
          forgetUploads(code); // the tape is saved: no earlier upload of this order is left to go on with
          setState({ phase: "done", message: lastResponse.getBody()?.trim() ?? "" });
          onDone();
        },
        onError(error) {
          if (current.cancelled) return;
          upload.current = null;
          const answer = answerOf(error);
          // The server's refusal (not audio, too large, closed) ends the upload: nothing to go on with.
          // Without an answer, or a server's failure, it stopped: the same file goes on from there.
          if (answer && answer.status < 500 && answer.status !== 423) forgetUploads(code);
          setState({ phase: "refused", message: answer && answer.status < 500 && answer.text ? answer.text : messages.failed });
          if (answer && answer.status !== 423) onDone();
        },
      });
      current.task = task;
      upload.current = current;
      forgetUploads(code, fingerprintOf(code, file)); // one upload per order: an older file's is not this one
      const previous = await task.findPreviousUploads().catch(() => []);
      if (current.cancelled) return true;
      if (previous[0]) task.resumeFromPreviousUpload(previous[0]);
      setState({ phase: "uploading", sent: 0, total: file.size, secondsLeft: null, resumedFrom: 0, retrying: false });
      task.start();
      return true;
    },
    [code, onDone],
  );

  /** Cancel: stops sending and asks the server to delete what it staged (tus termination). */
  const cancel = useCallback(async () => {
    const current = upload.current;
    upload.current = null;
    setState({ phase: "cancelled" });
    forgetUploads(code); // cancelled on purpose: never "stopped before it finished"
    if (!current) return;
    current.cancelled = true;
    // Still being created: aborting now would leave the server's upload behind; onUploadUrlAvailable deletes it.
    if (current.task.url) await current.task.abort(true).catch(() => {});
    forgetUploads(code);
  }, [code]);

  /** A refusal found before any byte goes (the file is over the limit). */
  const refuse = useCallback((message: string) => setState({ phase: "refused", message }), []);

  return { state, start, cancel, refuse };
}
