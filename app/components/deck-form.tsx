import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import { useHydrated } from "./use-hydrated";

/**
 * A deck form: a plain POST to "/" without JavaScript (answered by a redirect), a
 * fetcher with it (answered in place; the page never reloads or jumps).
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
    <fetcher.Form method="post" action="/" className={className} onChange={onChange}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {hydrated ? <input type="hidden" name="_fetch" value="1" /> : null}
      {children}
    </fetcher.Form>
  );
}
