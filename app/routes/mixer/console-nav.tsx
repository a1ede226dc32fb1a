import { Link, NavLink } from "react-router";
import { CONSOLE_COPY } from "~/domain/copy-console";

const LINKS = [
  { to: "/mixer", label: CONSOLE_COPY.nav.queue },
  { to: "/mixer/shop", label: CONSOLE_COPY.nav.shop },
  { to: "/mixer/payments", label: CONSOLE_COPY.nav.payments },
  { to: "/mixer/insights", label: CONSOLE_COPY.nav.insights },
];

/** The unread shopper messages (mixerInbox): how many, and the order waiting longest for a reply. */
export type InboxSummary = { total: number; first: string | null };

/** The console's own pages, above each of them, and the count of unread shopper messages ("Messages: 3"). */
export function ConsoleNav({ inbox }: { inbox: InboxSummary }) {
  return (
    <nav aria-label="Console" className="flex flex-wrap items-center gap-2 border-b border-line pb-3">
      {LINKS.map(({ to, label }) => (
        <NavLink key={to} to={to} end className={({ isActive }) => (isActive ? "btn-primary" : "btn-ghost")}>
          {label}
        </NavLink>
      ))}
      {inbox.total > 0 && inbox.first ? (
        <Link
          to={`/mixer/orders/${inbox.first}#messages`}
          className="btn-ghost ml-auto border-acid text-acid"
          data-testid="console-messages"
        >
          {CONSOLE_COPY.messages(inbox.total)}
        </Link>
      ) : (
        <span className="ml-auto text-sm text-muted" data-testid="console-messages">
          {CONSOLE_COPY.messages(0)}
        </span>
      )}
    </nav>
  );
}
