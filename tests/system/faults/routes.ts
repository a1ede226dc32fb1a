// The routes of the build as React Router's manifest lists them (the one the server's pages load):
// the ones that read a body (an action) and the ones that answer a file (a loader, no page).
// The server's own endpoints beside the framework's (tus, the tape's plain form) are added by the test.

export type ManifestRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  hasAction: boolean;
  hasLoader: boolean;
  hasDefaultExport: boolean;
};

/** The manifest the server's pages load (window.__reactRouterManifest in /assets/manifest-*.js). */
export async function routeManifest(base: string): Promise<ManifestRoute[]> {
  const page = await (await fetch(`${base}/auth`)).text();
  const url = /\/assets\/manifest-[\w-]+\.js/.exec(page)?.[0];
  if (!url) throw new Error("no manifest script on /auth");
  const script = await (await fetch(base + url)).text();
  const json = script.slice(script.indexOf("=") + 1).replace(/;\s*$/, "");
  return Object.values((JSON.parse(json) as { routes: Record<string, ManifestRoute> }).routes);
}

/** A route's URL pattern: its parents' paths and its own ("/review" under "/"). */
export function patternOf(route: ManifestRoute, all: ManifestRoute[]): string {
  const parts: string[] = [];
  for (let r: ManifestRoute | undefined = route; r; r = all.find((p) => p.id === r!.parentId))
    if (r.path) parts.unshift(r.path.replace(/^\/|\/$/g, ""));
  return `/${parts.filter(Boolean).join("/")}`;
}

/** Each URL of a pattern: `values` names what each parameter takes; the splat, a page that does not exist. */
export function urlsOf(pattern: string, values: Record<string, string[]>): string[] {
  let urls = [pattern.replace(/\*$/, "no-such-page")];
  for (const [, name] of pattern.matchAll(/:(\w+)/g)) {
    const options = values[name];
    if (!options) throw new Error(`no value for :${name} in ${pattern}`);
    urls = urls.flatMap((url) => options.map((value) => url.replace(`:${name}`, value)));
  }
  return urls;
}

/** Every route with an action (it reads a body), as URLs. */
export const actionUrls = (routes: ManifestRoute[], values: Record<string, string[]>) =>
  routes.filter((r) => r.hasAction).flatMap((r) => urlsOf(patternOf(r, routes), values));

/** Every resource route that answers GET (a loader, no page), as URLs. */
export const resourceUrls = (routes: ManifestRoute[], values: Record<string, string[]>) =>
  routes.filter((r) => r.hasLoader && !r.hasDefaultExport).flatMap((r) => urlsOf(patternOf(r, routes), values));
