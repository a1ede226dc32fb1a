import type { Route } from "./+types/readyz";
import { rootOf } from "~/server/root.server";
import { readiness } from "~/server/services/health.server";

/** Readiness: 200 "ready" when every check passes (database, migrations, tape store), else 503 and the failing check's name. */
export async function loader({ context }: Route.LoaderArgs) {
  const result = await readiness(rootOf(context));
  return new Response(result.ready ? "ready" : result.failing, {
    status: result.ready ? 200 : 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export function action() {
  return new Response("GET only", { status: 405, headers: { Allow: "GET, HEAD" } });
}
