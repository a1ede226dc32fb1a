import {
  Link,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  useLocation,
  useNavigation,
  useRouteLoaderData,
  Form,
  type ShouldRevalidateFunction,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { COPY } from "./domain/copy";
import type { Toast } from "./domain/toast";
import { isUnsent } from "./domain/unsent";
import { useUncaughtErrorReports } from "./components/client-errors";
import { PageScripts } from "./components/deferred-scripts";
import { GeneralErrorBoundary } from "./components/error-boundary";
import { useNonce } from "./components/nonce";
import { Toaster, ToastHostProvider } from "./components/toaster";
import { backendOf, userContext } from "./server/context.server";
import { rootMiddleware } from "./server/middleware.server";
import { getConfig, type ShopCopy } from "./server/platform/config.server";
import { takeToast } from "./server/platform/toast.server";
import { userDisplayName } from "./server/services/accounts.server";
import { shopWordsOf } from "./server/services/catalogue.server";
import { unseenReplies } from "./server/services/conversation.server";
import { isMixer } from "./server/services/mixer.server";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export type RootData = {
  shop: ShopCopy;
  /** unread: the mixer's replies the shopper has not seen yet, on all their orders. */
  user: { name: string; mixer: boolean; unread: number } | null;
  toast: Toast | null;
  deferScripts: boolean;
};

export const middleware: Route.MiddlewareFunction[] = rootMiddleware;

export async function loader({ context }: Route.LoaderArgs): Promise<RootData> {
  const user = context.get(userContext);
  // Asked with the user's reads (and the page's), so all join one database trip.
  const words = shopWordsOf(context);
  const [name, replies] = user
    ? await Promise.all([userDisplayName(backendOf(context), user), unseenReplies(backendOf(context))])
    : [null, null];
  const unread = [...(replies?.values() ?? [])].reduce((sum, n) => sum + n, 0);
  return {
    shop: await words,
    user: user && name !== null ? { name, mixer: isMixer(user), unread } : null,
    toast: takeToast(context),
    deferScripts: getConfig().DEFER_SCRIPTS,
  };
}

// Revalidate after every action (4xx too) so fetchers' toasts show at once; not after an unsent message, as the reload would fail too.
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult }) => !isUnsent(actionResult);

export const useRootData = () => useRouteLoaderData("root") as RootData | undefined;

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const root = useRootData();
  useUncaughtErrorReports();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="description" content={root?.shop.tagline ?? "Personalised DJ mixtapes"} />
        <meta name="theme-color" content="#0f0d14" />
        <Meta />
        <Links nonce={nonce} />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <PageScripts nonce={nonce} deferred={root?.deferScripts !== false} />
      </body>
    </html>
  );
}

function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === "idle") return null;
  return (
    <div className="fixed inset-x-0 top-0 z-50 h-1" role="progressbar" aria-label="Loading" aria-busy="true">
      <div className="nav-progress h-full bg-acid" />
    </div>
  );
}

/** The page a path belongs to: "/" and "/review" are one page (the dialog is a child). */
const pageOf = (pathname: string) => {
  const first = pathname.split("/")[1] ?? "";
  return first === "review" ? "" : first;
};

/** While a navigation to another page is pending, a skeleton stands in for the page. */
function PageSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading" className="animate-pulse space-y-4" data-testid="page-skeleton">
      <div className="h-8 w-56 rounded bg-panel-2" />
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="h-32 rounded-xl bg-panel" />
        ))}
      </div>
    </div>
  );
}

function Chrome({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const navigation = useNavigation();
  const location = useLocation();
  const switching =
    navigation.state === "loading" && !navigation.formData && pageOf(navigation.location.pathname) !== pageOf(location.pathname);
  const shop = root?.shop;
  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main" className="sr-only-focusable btn-primary fixed left-2 top-2 z-50">
        Skip to content
      </a>
      <NavigationProgress />
      <div className="relative h-28 overflow-hidden border-b border-line bg-panel sm:h-40">
        <img
          src="/art/hero.svg"
          alt=""
          width={1440}
          height={360}
          fetchPriority="high"
          decoding="async"
          className="h-full w-full object-cover object-[center_65%]"
        />
      </div>
      <header className="border-b border-line bg-ink/95">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="min-w-0">
            <p className="font-display text-xl font-bold uppercase tracking-wider text-acid sm:text-2xl">
              <Link to="/" className="hover:underline">
                {shop?.title ?? "Mixtape"}
              </Link>
            </p>
            {root?.user ? (
              <p className="text-sm text-muted">
                Signed in as{" "}
                <span data-testid="display-name" className="font-bold text-cream">
                  {root.user.name}
                </span>
              </p>
            ) : null}
          </div>
          {root?.user ? (
            // Tighter buttons on a phone: one row, so each page starts higher on the first screen.
            <nav aria-label="Account" className="flex flex-wrap items-center gap-2">
              {root.user.mixer ? (
                <Link to="/mixer" className="btn-ghost max-sm:px-2">
                  {COPY.nav.console}
                </Link>
              ) : null}
              <Link to="/my-mixtapes" className="btn-ghost max-sm:px-2">
                {COPY.nav.myMixtapes}
                {root.user.unread ? (
                  <>
                    <span aria-hidden="true" className="rounded-full bg-acid px-1.5 text-xs text-ink" data-testid="header-unread">
                      {root.user.unread}
                    </span>
                    <span className="sr-only"> ({COPY.nav.newReplies(root.user.unread)})</span>
                  </>
                ) : null}
              </Link>
              <Link to="/account" className="btn-ghost max-sm:px-2">
                {COPY.nav.account}
              </Link>
              <Form method="post" action="/logout">
                <button type="submit" className="btn-ghost max-sm:px-2">
                  {COPY.nav.logout}
                </button>
              </Form>
            </nav>
          ) : null}
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">
        {switching ? <PageSkeleton /> : children}
      </main>
      <footer className="border-t border-line bg-panel">
        <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-5 text-sm text-muted sm:flex-row sm:items-center sm:justify-between">
          <p>{shop?.tagline}</p>
          {shop ? (
            <a href={shop.creatorUrl} className="font-bold text-acid underline-offset-4 hover:underline" rel="noopener">
              Made by the creator · visit the site
            </a>
          ) : null}
        </div>
      </footer>
      <Toaster />
    </div>
  );
}

export default function App() {
  return (
    <ToastHostProvider>
      <Chrome>
        <Outlet />
      </Chrome>
    </ToastHostProvider>
  );
}

export function ErrorBoundary() {
  return (
    <ToastHostProvider>
      <Chrome>
        <GeneralErrorBoundary />
      </Chrome>
    </ToastHostProvider>
  );
}
