import { HOME_COPY } from "~/domain/copy-home";

/** Each step is a link to its section: it works without JavaScript, and comes early in the tab order. */
const STEPS = [
  { to: "#library", label: HOME_COPY.steps.songs },
  { to: "#designs", label: HOME_COPY.steps.cover },
  { to: "#options", label: HOME_COPY.steps.options },
  { to: "#deck", label: HOME_COPY.steps.review },
] as const;

export function StepLinks({ className = "" }: { className?: string }) {
  return (
    <ol className={`flex flex-wrap items-center gap-x-1 font-display text-sm font-bold ${className}`}>
      {STEPS.map((step, i) => (
        <li key={step.to} className="flex items-center gap-x-1">
          {i > 0 ? (
            <span aria-hidden="true" className="text-muted">
              ·
            </span>
          ) : null}
          <a href={step.to} className="inline-flex min-h-8 items-center px-1 text-acid underline underline-offset-4">
            {step.label}
          </a>
        </li>
      ))}
    </ol>
  );
}

/** "Songs · Cover · Options · Review": on a phone the cover and the options sit below all 30 songs. */
export function StepBar() {
  return (
    <nav aria-label={HOME_COPY.steps.label} className="mb-4" data-testid="step-bar">
      <StepLinks />
    </nav>
  );
}
