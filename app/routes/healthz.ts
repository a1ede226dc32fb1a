/** Liveness: 200 while this process serves, with no database work (GET /readyz says whether it should get traffic). */
export function loader() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}

export function action() {
  return new Response("GET only", { status: 405, headers: { Allow: "GET, HEAD" } });
}
