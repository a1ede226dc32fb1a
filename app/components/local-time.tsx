import { formatLocal, formatLocalDate, formatPlaced, formatPlacedDate } from "~/domain/time";
import { useHydrated } from "./use-hydrated";

/**
 * A time as the shopper reads it: the server (and a browser without JavaScript) writes it in UTC,
 * labelled so; once the page has hydrated, it is rewritten in the browser's own time zone. The
 * first render in the browser is the server's, so hydration never meets a different text.
 */
export function LocalTime({
  iso,
  testId,
  className,
  dateOnly = false,
}: {
  iso: string;
  testId?: string;
  className?: string;
  /** The day only ("Nov 28, 2026"), where the minute says nothing more. */
  dateOnly?: boolean;
}) {
  const hydrated = useHydrated();
  const text = dateOnly
    ? hydrated
      ? formatLocalDate(iso)
      : formatPlacedDate(iso)
    : hydrated
      ? formatLocal(iso)
      : formatPlaced(iso);
  return (
    <time dateTime={iso} data-testid={testId} className={className}>
      {text}
    </time>
  );
}
