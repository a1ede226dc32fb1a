import type { ReactNode } from "react";

/** The answer of a form, kept on the page after its toast has faded (the toast announces it). */
export function LastingNotice({
  heading,
  text,
  className = "",
  children,
}: {
  heading: string;
  text: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div className={`rounded-md border-2 border-teal bg-panel-2 px-4 py-3 ${className}`} data-testid="lasting-notice">
      <p className="font-display font-bold text-acid">{heading}</p>
      <p className="mt-1 break-words text-sm">{text}</p>
      {children}
    </div>
  );
}
