import { getBackend } from "~/server/backend/index.server";

/** 200 when the database answers, 503 otherwise. */
export async function loader() {
  const ok = await getBackend()
    .then((backend) => backend.health())
    .catch(() => false);
  return Response.json(
    { status: ok ? "ok" : "unavailable" },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}

export function action() {
  return new Response("GET only", { status: 405, headers: { Allow: "GET, HEAD" } });
}
