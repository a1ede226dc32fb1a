import { Form } from "react-router";
import { ErrorList, StatusButton, useIsPending } from "~/components/forms";
import { WORDS_COPY } from "~/domain/copy-catalogue";
import { WORD_KEYS, WORD_LIMITS, type ShopWords } from "~/domain/shop-words";
import { maxLengthAttribute } from "~/domain/text";

export type WordsReply = { errors: Partial<Record<keyof ShopWords | "form", string>>; typed: ShopWords };

/** The shop's words on Shop Settings: what the mixer saved wins over the environment's (shown until then). */
export function ShopWordsForm({ words, reply }: { words: ShopWords; reply: WordsReply | null }) {
  const saving = useIsPending({ intent: "words" });
  const values = reply?.typed ?? words;
  const errors = reply?.errors ?? {};
  const messages = [errors.form, ...WORD_KEYS.map((k) => errors[k])].filter((m): m is string => Boolean(m));
  return (
    <section aria-labelledby="words-heading" className="card mx-auto max-w-xl p-6 sm:p-8" id="words">
      <h2 id="words-heading" className="font-display text-xl font-bold uppercase tracking-wider text-acid">
        {WORDS_COPY.heading}
      </h2>
      <p className="mt-1 text-sm text-muted">{WORDS_COPY.intro}</p>
      <Form method="post" className="mt-5 space-y-4" key={JSON.stringify(reply ?? words)} preventScrollReset>
        <input type="hidden" name="intent" value="words" />
        <ErrorList id="words-errors" messages={messages} focus />
        {WORD_KEYS.map((key) => (
          <div key={key}>
            <label className="label" htmlFor={`words-${key}`}>
              {WORDS_COPY[key]}
            </label>
            <input
              id={`words-${key}`}
              name={key}
              type={key === "creatorUrl" || key === "checkoutUrl" ? "url" : "text"}
              inputMode={key === "creatorUrl" || key === "checkoutUrl" ? "url" : undefined}
              className="field"
              defaultValue={values[key]}
              maxLength={maxLengthAttribute(WORD_LIMITS[key])}
              aria-invalid={errors[key] ? true : undefined}
              aria-describedby={
                [key === "checkoutUrl" ? "words-checkout-hint" : null, errors[key] ? "words-errors" : null]
                  .filter(Boolean)
                  .join(" ") || undefined
              }
            />
            {key === "checkoutUrl" ? (
              <p id="words-checkout-hint" className="mt-1 text-xs text-muted">
                {WORDS_COPY.checkoutHint}
              </p>
            ) : null}
          </div>
        ))}
        <StatusButton pending={saving} pendingLabel={WORDS_COPY.saving} className="btn-primary" name="intent" value="words">
          {WORDS_COPY.save}
        </StatusButton>
      </Form>
    </section>
  );
}
