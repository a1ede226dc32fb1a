import { getBackend } from "~/server/runtime.server";

/** 200 when the database answers, 503 otherwise. */
export async function loader() {
  let ok = false;
  try {
    ok = await (await getBackend()).health();
  } catch {
    ok = false;
  }
  return new Response(JSON.stringify({ status: ok ? "ok" : "unavailable" }), {
    status: ok ? 200 : 503,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

export function action() {
  return new Response("GET only", { status: 405, headers: { Allow: "GET, HEAD" } });
}
