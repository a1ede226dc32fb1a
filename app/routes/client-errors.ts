import type { Route } from "./+types/client-errors";
import { CLIENT_ERRORS } from "~/components/client-errors";
import { REFUSAL_COPY } from "~/domain/copy";
import { humanWait } from "~/domain/time";
import { requestContext } from "~/server/context.server";
import { readForm } from "~/server/platform/http.server";
import { limitClientErrors } from "~/server/platform/rate-limit.server";

const PAGE_MAX = 200;
const USER_AGENT_MAX = 300;

const capped = (value: FormDataEntryValue | string | null, max: number) => (typeof value === "string" ? value.slice(0, max) : "");

/**
 * A browser's error report (app/components/client-errors.ts): one warn line with the message, the
 * page's path, the request id and the user agent; nothing else of the body. Same-origin only, as
 * every POST (server/app.ts); per address at most 20 a minute.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const info = context.get(requestContext);
  if (Number(request.headers.get("content-length") ?? 0) > CLIENT_ERRORS.bodyMax)
    return new Response(REFUSAL_COPY.tooLarge, { status: 413, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const wait = await limitClientErrors(context);
  if (wait !== null)
    return new Response(REFUSAL_COPY.tooMany(humanWait(wait)), {
      status: 429,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(wait) },
    });
  const form = await readForm(request);
  info.log.warn(
    {
      message: capped(form.get("message"), CLIENT_ERRORS.messageMax),
      page: capped(form.get("page"), PAGE_MAX).split("?")[0], // a path, never its query (tokens live there)
      userAgent: capped(request.headers.get("user-agent"), USER_AGENT_MAX),
    },
    "client error",
  );
  return new Response(null, { status: 204 });
}

export function loader() {
  return new Response("POST only", { status: 405, headers: { Allow: "POST" } });
}
