// React Router answers "/x.data" with the data of x's loaders, encoded for its client router. A
// resource route's loader answers a Response of its own (a tape, a CSV, an export, a probe); asked
// as page data, React Router reads that whole body into a string and encodes it again (a 53 MB tape
// made 129 MB of text/x-script). No page asks for it (the client router fetches a resource route as
// a document), so server/app.ts refuses such a URL before the app runs, from the build's own route
// list (docs/decisions/020-request-bodies.md).
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

type Build = ServerBuild | (() => Promise<ServerBuild>);
type Route = NonNullable<ServerBuild["routes"][string]>;
type Matchable = RouteObject & { resource: boolean };

/** The page path a React Router data URL asks for ("/x.data", "/x/_.data", "/_root.data"); null for any other path. */
export function dataRequestPath(pathname: string): string | null {
  if (!pathname.endsWith(".data")) return null;
  if (pathname === "/_root.data") return "/";
  return pathname.replace(/(\/_)?\.data$/, "") || "/";
}

/** The build's routes as a tree to match; a resource route is one without a page (React Router's own test). */
function treeOf(routes: ServerBuild["routes"]): Matchable[] {
  const node = (route: Route): Matchable => {
    const children = Object.values(routes)
      .filter((r) => r?.parentId === route.id)
      .map((r) => node(r!));
    const base = { id: route.id, path: route.path, caseSensitive: route.caseSensitive };
    const resource = route.module.default == null && route.module.ErrorBoundary == null;
    return (route.index ? { ...base, index: true, resource } : { ...base, children, resource }) as Matchable;
  };
  return Object.values(routes)
    .filter((r) => r && !r.parentId)
    .map((r) => node(r!));
}

/** Whether a path is a resource route's data URL (refused: 404), for this build (the dev server's may change). */
export function resourceDataUrls(build: Build) {
  const trees = new WeakMap<ServerBuild, Matchable[]>();
  return async (pathname: string): Promise<boolean> => {
    const target = dataRequestPath(pathname);
    if (target === null) return false;
    const current = typeof build === "function" ? await build() : build;
    let tree = trees.get(current);
    if (!tree) trees.set(current, (tree = treeOf(current.routes)));
    const leaf = matchRoutes(tree, target)?.at(-1)?.route as Matchable | undefined;
    return !!leaf?.resource;
  };
}
