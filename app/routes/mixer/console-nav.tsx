import { NavLink } from "react-router";
import { CONSOLE_COPY } from "~/domain/copy-console";

const LINKS = [
  { to: "/mixer", label: CONSOLE_COPY.nav.queue },
  { to: "/mixer/shop", label: CONSOLE_COPY.nav.shop },
  { to: "/mixer/payments", label: CONSOLE_COPY.nav.payments },
];

/** The console's own pages, above each of them. */
export function ConsoleNav() {
  return (
    <nav aria-label="Console" className="flex flex-wrap gap-2 border-b border-line pb-3">
      {LINKS.map(({ to, label }) => (
        <NavLink key={to} to={to} end className={({ isActive }) => (isActive ? "btn-primary" : "btn-ghost")}>
          {label}
        </NavLink>
      ))}
    </nav>
  );
}
