import { useEffect, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { DeckForm, useSubmitAfterPause } from "~/components/deck-form";
import { HOME_COPY, TOGGLE_COPY } from "~/domain/copy-home";
import { NOTE_MAX, TOGGLE_KEYS, type Deck } from "~/domain/deck";
import { OPTIONS_ANSWER_PLACE, SAVE_OPTIONS_FIELD } from "~/domain/intents";
import { useRootData } from "~/root";
import { maxLengthAttribute, textLength } from "~/domain/text";

export const OPTIONS_FORM = "options-form";

export function OptionsPanel({ deck, mixer }: { deck: Deck; mixer: string }) {
  const pause = useSubmitAfterPause();
  // "Options saved" (the button) or "Saved" (a tick or a pause in typing), until the next answer.
  const toast = useRootData()?.toast;
  const answer = toast?.place === OPTIONS_ANSWER_PLACE ? toast : null;
  const answerLine = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    // In view as it arrives (above the phone's sticky bar: its scroll margin); a page without JavaScript lands on #options.
    if (answer) answerLine.current?.scrollIntoView({ block: "nearest" });
  }, [answer?.id]); // eslint-disable-line react-hooks/exhaustive-deps -- a new answer, not a new render
  const [note, setNote] = useState(deck.note);
  // The loader's note, not the optimistic deck's, which lags an edit; it replaces the text only after a reset.
  const saved = (useRouteLoaderData("routes/home") as { deck: Deck } | undefined)?.deck.note ?? deck.note;
  const lastSaved = useRef(saved);
  useEffect(() => {
    if (saved === lastSaved.current) return;
    const typedSince = note !== lastSaved.current;
    lastSaved.current = saved;
    if (!typedSince) setNote(saved);
    // Only a new server note decides; `note` is read as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [saved]);
  useEffect(() => {
    // Ticked or typed before the page hydrated, no handler saw it: what the form shows is saved now.
    const form = document.getElementById(OPTIONS_FORM) as HTMLFormElement | null;
    if (!form) return;
    const typed = (form.elements.namedItem("note") as HTMLTextAreaElement).value;
    const ticked = TOGGLE_KEYS.some((key) => (form.elements.namedItem(key) as HTMLInputElement).checked !== deck.toggles[key]);
    // The DOM is the source here (typed before React ran): state takes it once.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (typed !== deck.note) setNote(typed);
    if (ticked || typed !== deck.note) pause.later(form);
    // Once, at hydration: later changes have their handlers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <section id="options" aria-labelledby="options-heading" className="card scroll-mt-24 p-4">
      <h2 id="options-heading" className="font-display text-lg font-bold uppercase tracking-wider text-acid">
        Options
      </h2>
      <DeckForm
        id={OPTIONS_FORM}
        intent="options"
        className="mt-3 space-y-3"
        onChange={(e) => {
          const target = e.target as HTMLInputElement;
          const form = e.currentTarget;
          if (target.type === "checkbox") form.requestSubmit();
          else pause.later(form);
        }}
        onSent={pause.cancel}
      >
        <fieldset className="space-y-2">
          <legend className="sr-only">Options</legend>
          {TOGGLE_KEYS.map((key) => (
            <label key={key} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-1 hover:bg-panel-2">
              <input
                type="checkbox"
                name={key}
                defaultChecked={deck.toggles[key]}
                key={`${key}-${deck.toggles[key]}`}
                className="h-5 w-5 accent-signal"
              />
              <span>{TOGGLE_COPY[key](mixer)}</span>
            </label>
          ))}
        </fieldset>
        <div>
          <label htmlFor="note" className="label">
            {HOME_COPY.noteLabel(mixer)}
          </label>
          <textarea
            id="note"
            name="note"
            rows={3}
            maxLength={maxLengthAttribute(NOTE_MAX)}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder={HOME_COPY.notePlaceholder}
            className="field resize-none"
            aria-describedby="note-count"
          />
          <p id="note-count" className="mt-1 text-right text-xs text-muted">
            {textLength(note)} / {NOTE_MAX}
          </p>
        </div>
        <button type="submit" name={SAVE_OPTIONS_FIELD} value="1" className="btn-ghost w-full">
          {HOME_COPY.saveOptions}
        </button>
        <p
          ref={answerLine}
          id={OPTIONS_ANSWER_PLACE}
          role="status"
          className="min-h-5 scroll-mb-28 scroll-mt-24 text-center font-display text-sm font-bold text-teal"
          data-testid="options-saved"
        >
          {answer?.message}
        </p>
      </DeckForm>
    </section>
  );
}
