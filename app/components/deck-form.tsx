import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import { enqueueDeckEdit } from "./deck-queue";
import { useHydrated } from "./use-hydrated";

/**
 * A deck form: a plain POST to "/" without JavaScript (answered by a redirect), a
 * queued fetcher with it (answered in place; the page never reloads or jumps).
 */
export function DeckForm({
  intent,
  fields,
  children,
  className,
  fetcherKey,
  onChange,
}: {
  intent: string;
  fields?: Record<string, string>;
  children: ReactNode;
  className?: string;
  fetcherKey?: string;
  onChange?: React.FormEventHandler<HTMLFormElement>;
}) {
  const fetcher = useFetcher({ key: fetcherKey });
  const hydrated = useHydrated();
  return (
    <form
      method="post"
      action="/"
      className={className}
      onChange={onChange}
      onSubmit={(e) => {
        e.preventDefault();
        const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLElement | null;
        const formData = new FormData(e.currentTarget, submitter);
        enqueueDeckEdit(formData, (fd) => fetcher.submit(fd, { method: "post", action: "/" }));
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {hydrated ? <input type="hidden" name="_fetch" value="1" /> : null}
      {children}
    </form>
  );
}
