// A module resolve hook: react-router's package exports point Node at its
// development build whatever NODE_ENV says. In production, load its production build
// (same API, no dev-only checks and warnings). Registered by server/start.js.
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (result.url.includes("/node_modules/react-router/dist/development/")) {
    return { ...result, url: result.url.replace("/dist/development/", "/dist/production/") };
  }
  return result;
}
