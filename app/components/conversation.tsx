import { useEffect, useRef, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import {
  MESSAGE_FIELD,
  MESSAGE_INTENT,
  MESSAGE_MAX,
  readMessageBody,
  type MessageResult,
  type Side,
  type TimelineEntry,
} from "~/domain/conversation";
import { CONVERSATION_COPY } from "~/domain/copy-orders";
import { maxLengthAttribute } from "~/domain/text";
import { LocalTime } from "./local-time";
import { StatusButton } from "./forms";
import { useHydrated } from "./use-hydrated";

const unsent = (body: string): MessageResult => ({ ok: false, error: CONVERSATION_COPY.notSent, body, unsent: true });

/** A failed request comes back as a refusal with its text, instead of replacing the page with the error. */
export async function keepUnsentMessage<T>(request: Request, serverAction: () => Promise<T>): Promise<T | MessageResult> {
  const copy = request.clone();
  try {
    return await serverAction();
  } catch (error) {
    const form = await copy.formData();
    if (form.get("intent") !== MESSAGE_INTENT) throw error;
    return unsent(String(form.get(MESSAGE_FIELD) ?? ""));
  }
}

export function Conversation({
  timeline,
  open,
  action,
  side,
  authors,
  refused,
}: {
  timeline: TimelineEntry[];
  open: boolean;
  action: string;
  side: Side;
  authors: { shopper: string; mixer: string };
  refused: MessageResult | null;
}) {
  const fetcher = useFetcher<MessageResult>({ key: `message-${action}` });
  const sending =
    fetcher.state !== "idle" && fetcher.formData?.get("intent") === MESSAGE_INTENT
      ? String(fetcher.formData.get(MESSAGE_FIELD) ?? "")
      : null;
  return (
    <section id="messages" aria-labelledby="timeline-heading" className="card scroll-mt-24 p-4 sm:p-6">
      <h2 id="timeline-heading" className="font-display text-xl font-bold uppercase tracking-wider text-acid">
        {CONVERSATION_COPY.timeline}
      </h2>
      <ol className="mt-4 space-y-3" data-testid="timeline">
        {timeline.map((entry) =>
          entry.kind === "event" ? (
            <li
              key={`${entry.event}-${entry.at}-${entry.amount ?? ""}`}
              className="flex flex-wrap items-baseline gap-x-3 text-sm"
              data-testid="timeline-event"
            >
              <span aria-hidden="true" className="inline-block h-2 w-2 shrink-0 rounded-full bg-teal" />
              <span className="font-bold">
                {CONVERSATION_COPY.events[entry.event]}
                {entry.amount ? ` ${entry.amount}` : ""}
              </span>
              {entry.detail ? <span className="text-muted">{entry.detail}</span> : null}
              <LocalTime iso={entry.at} className="text-muted" />
            </li>
          ) : (
            <MessageItem
              key={entry.id}
              id={`message-${entry.id}`}
              mine={entry.fromMixer === (side === "mixer")}
              author={entry.fromMixer ? authors.mixer : authors.shopper}
              body={entry.body}
              at={entry.at}
            />
          ),
        )}
        {sending !== null ? (
          <MessageItem mine author={side === "mixer" ? authors.mixer : authors.shopper} body={sending} at={null} />
        ) : null}
      </ol>
      {open ? (
        <MessageForm fetcher={fetcher} action={action} side={side} mixerName={authors.mixer} refused={refused} />
      ) : (
        <p className="mt-5 rounded-md border border-line px-3 py-2 text-sm text-muted" data-testid="conversation-closed">
          {CONVERSATION_COPY.closed}
        </p>
      )}
    </section>
  );
}

function MessageItem({
  id,
  mine,
  author,
  body,
  at,
}: {
  id?: string;
  mine: boolean;
  author: string;
  body: string;
  at: string | null;
}) {
  return (
    <li
      id={id}
      className={`scroll-mt-24 rounded-lg border p-3 sm:max-w-[85%] ${mine ? "border-acid sm:ml-auto" : "border-teal"}`}
      data-testid="timeline-message"
      aria-busy={at === null ? true : undefined}
    >
      <p className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span className="font-bold">{author}</span>
        {at ? <LocalTime iso={at} className="text-muted" /> : <span className="text-muted">{CONVERSATION_COPY.sending}</span>}
      </p>
      <p className="mt-1 whitespace-pre-wrap break-words" data-testid="message-body">
        {body}
      </p>
    </li>
  );
}

function MessageForm({
  fetcher,
  action,
  side,
  mixerName,
  refused,
}: {
  fetcher: ReturnType<typeof useFetcher<MessageResult>>;
  action: string;
  side: Side;
  mixerName: string;
  refused: MessageResult | null;
}) {
  const hydrated = useHydrated();
  const box = useRef<HTMLTextAreaElement>(null);
  const [mistake, setMistake] = useState<string | null>(null);
  const answer = fetcher.data;
  const restored = useRef<MessageResult | null>(null);
  // Unless something new was typed there meanwhile.
  useEffect(() => {
    if (fetcher.state !== "idle" || !answer || answer.ok || restored.current === answer) return;
    restored.current = answer;
    if (box.current && box.current.value === "") box.current.value = answer.body;
    box.current?.focus();
  }, [fetcher.state, answer]);
  const sending = fetcher.state !== "idle" && fetcher.formData?.get("intent") === MESSAGE_INTENT;
  const error =
    mistake ?? (!sending && answer && !answer.ok ? answer.error : null) ?? (refused && !refused.ok ? refused.error : null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const read = readMessageBody(box.current?.value);
    if ("error" in read) {
      setMistake(read.error);
      box.current?.focus();
      return;
    }
    setMistake(null);
    fetcher.submit(new FormData(event.currentTarget), { method: "post", action });
    if (box.current) box.current.value = "";
  };
  const describedBy = ["message-hint", error ? "message-error" : null].filter(Boolean).join(" ");
  return (
    <fetcher.Form
      method="post"
      action={action}
      onSubmit={onSubmit}
      className="mt-5 space-y-2 border-t border-line pt-4"
      aria-labelledby="send-heading"
      data-testid="message-form"
    >
      <h3 id="send-heading" className="font-display text-lg font-bold uppercase tracking-wider">
        {CONVERSATION_COPY.sendMessage}
      </h3>
      <input type="hidden" name="intent" value={MESSAGE_INTENT} />
      {/* With JavaScript the answer is data, not a redirect (platform/http.server.ts isFetch). */}
      {hydrated ? <input type="hidden" name="_fetch" value="1" /> : null}
      <label htmlFor="message-body" className="label">
        {CONVERSATION_COPY.message}
      </label>
      <textarea
        ref={box}
        id="message-body"
        name={MESSAGE_FIELD}
        rows={3}
        maxLength={maxLengthAttribute(MESSAGE_MAX)}
        defaultValue={refused && !refused.ok ? refused.body : ""}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        className="field resize-y"
      />
      <p id="message-hint" className="text-xs text-muted">
        {side === "shopper" ? CONVERSATION_COPY.hintToMixer(mixerName) : CONVERSATION_COPY.hintToShopper}
      </p>
      {error ? (
        <p
          id="message-error"
          role="alert"
          className="rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm text-cream"
          data-testid="message-error"
        >
          {error}
        </p>
      ) : null}
      <StatusButton pending={sending} pendingLabel={CONVERSATION_COPY.sending} className="btn-primary">
        {CONVERSATION_COPY.send}
      </StatusButton>
    </fetcher.Form>
  );
}
