import { Link, NavLink } from "react-router";
import { CATALOGUE_COPY } from "~/domain/copy-catalogue";
import { CONSOLE_COPY } from "~/domain/copy-console";

const LINKS = [
  { to: "/mixer", label: CONSOLE_COPY.nav.queue },
  { to: "/mixer/shop", label: CONSOLE_COPY.nav.shop },
  { to: "/mixer/catalogue", label: CATALOGUE_COPY.nav },
  { to: "/mixer/payments", label: CONSOLE_COPY.nav.payments },
  { to: "/mixer/insights", label: CONSOLE_COPY.nav.insights },
];

/** The unread shopper messages (mixerInbox): how many, and the order waiting longest for a reply. */
export type InboxSummary = { total: number; first: string | null };

/** The console's own pages, above each of them, and the count of unread shopper messages ("Messages: 3"). */
export function ConsoleNav({ inbox }: { inbox: InboxSummary }) {
  return (
    <nav
      aria-label="Console"
      className="-mx-4 flex items-center gap-2 overflow-x-auto border-b border-line px-4 py-1 pb-3 sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0"
    >
      {LINKS.map(({ to, label }) => (
        <NavLink key={to} to={to} end className={({ isActive }) => `shrink-0 ${isActive ? "btn-primary" : "btn-ghost"}`}>
          {label}
        </NavLink>
      ))}
      {inbox.total > 0 && inbox.first ? (
        <Link
          to={`/mixer/orders/${inbox.first}#messages`}
          className="btn-ghost ml-auto shrink-0 border-acid text-acid"
          data-testid="console-messages"
        >
          {CONSOLE_COPY.messages(inbox.total)}
        </Link>
      ) : (
        <span className="ml-auto shrink-0 text-sm text-muted" data-testid="console-messages">
          {CONSOLE_COPY.messages(0)}
        </span>
      )}
    </nav>
  );
}
