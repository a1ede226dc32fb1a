import { useState, type ReactNode } from "react";
import { Form, Link } from "react-router";
import { ErrorList, StatusButton, useIsPending } from "~/components/forms";
import { useHydrated } from "~/components/use-hydrated";
import { CATALOGUE_COPY } from "~/domain/copy-catalogue";
import { maxLengthAttribute } from "~/domain/text";
import { ConsoleNav, type InboxSummary } from "./console-nav";

type Refused = { errors?: Record<string, string | undefined>; kept?: Record<string, string | undefined> } | undefined;

/** A song's or a design's page: its name, its media, Save, and Retire or Bring back once it exists. */
export function CatalogueEntryPage({
  kind,
  entry,
  heading,
  status,
  name,
  inbox,
  actionData,
  media,
}: {
  kind: "song" | "design";
  /** Null on the "new" page. */
  entry: { version: number | string; active: boolean } | null;
  heading: string;
  status: ReactNode;
  /** The entry's name field: `title` for a song, `name` for a design. */
  name: { field: string; label: string; max: number; value: string | undefined };
  inbox: InboxSummary;
  /** A refused save: its messages by field, and what was typed. */
  actionData: Refused;
  /** The media fields, told the form's errors and kept values, and when an upload starts or ends. */
  media: (form: {
    errors: Record<string, string | undefined>;
    kept: Record<string, string | undefined>;
    onBusy: (busy: boolean) => void;
  }) => ReactNode;
}) {
  const hydrated = useHydrated();
  const saving = useIsPending({ intent: "save" });
  const [uploading, setUploading] = useState(0);
  const errors = actionData?.errors ?? {};
  const kept = actionData?.kept ?? {};
  const nameId = `${kind}-${name.field}`;
  const nameError = errors[name.field];
  return (
    <section aria-labelledby={`${kind}-heading`} className="space-y-5">
      <ConsoleNav inbox={inbox} />
      <div className="card mx-auto max-w-2xl p-6 sm:p-8">
        <p>
          <Link to="/mixer/catalogue" className="text-sm font-bold text-acid underline-offset-4 hover:underline">
            ← {CATALOGUE_COPY.backToCatalogue}
          </Link>
        </p>
        <h1
          id={`${kind}-heading`}
          className="mt-2 break-words font-display text-2xl font-bold uppercase tracking-wider text-acid"
        >
          {heading}
        </h1>
        {entry ? (
          <p className="mt-1 text-sm text-muted" data-testid={`${kind}-status`}>
            {status}
          </p>
        ) : null}
        <Form
          // A refused save comes back with what was typed: the fields start from it.
          key={JSON.stringify(actionData ?? null)}
          method="post"
          encType={hydrated ? "application/x-www-form-urlencoded" : "multipart/form-data"}
          className="mt-6 space-y-5"
          aria-describedby={errors.form ? `${kind}-form-error` : undefined}
        >
          <input type="hidden" name="intent" value="save" />
          {entry ? <input type="hidden" name="version" value={entry.version} /> : null}
          <ErrorList id={`${kind}-form-error`} messages={errors.form ? [errors.form] : []} focus />
          <div>
            <label className="label" htmlFor={nameId}>
              {name.label}
            </label>
            <input
              id={nameId}
              name={name.field}
              type="text"
              className="field"
              defaultValue={kept[name.field] ?? name.value ?? ""}
              maxLength={maxLengthAttribute(name.max)}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? `${nameId}-error` : undefined}
            />
            {nameError ? (
              <p
                id={`${nameId}-error`}
                role="alert"
                className="mt-1 text-sm font-bold text-danger"
                data-testid={`${name.field}-error`}
              >
                {nameError}
              </p>
            ) : null}
          </div>
          {media({ errors, kept, onBusy: (busy) => setUploading((n) => n + (busy ? 1 : -1)) })}
          <StatusButton
            pending={saving}
            pendingLabel={CATALOGUE_COPY.saving}
            className="btn-primary"
            name="intent"
            value="save"
            disabled={uploading > 0}
          >
            {CATALOGUE_COPY.save}
          </StatusButton>
        </Form>
        {entry ? (
          <Form method="post" className="mt-6 border-t border-line pt-5">
            <input type="hidden" name="version" value={entry.version} />
            <button type="submit" name="intent" value={entry.active ? "retire" : "restore"} className="btn-ghost">
              {entry.active ? CATALOGUE_COPY.retire : CATALOGUE_COPY.bringBack}
            </button>
          </Form>
        ) : null}
      </div>
    </section>
  );
}
