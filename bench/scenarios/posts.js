// The POST loops' steps: add a track (and read the redirect), and the whole order cycle.
import { ACCEPT_ENCODING, Jar, decodeDeckCookie, now, request, transmittedTo } from "../lib/index.js";

export function addTrackStep(base, clients, agent) {
  const headers = { "accept-encoding": ACCEPT_ENCODING };
  return async (i) => {
    const c = clients[i];
    const adding = !c.has10;
    const started = now();
    const post = await request(base, {
      method: "POST",
      path: "/",
      form: { intent: adding ? "add" : "remove", songId: "10" },
      jar: c.jar,
      agent,
      headers,
    });
    if (post.status !== 303) return { ok: false, error: `POST / answered ${post.status}` };
    const to = String(post.headers.location ?? "/").split("#")[0] || "/";
    const get = await request(base, { path: to, jar: c.jar, agent, headers });
    if (get.status !== 200) return { ok: false, error: `GET ${to} after the POST answered ${get.status}` };
    c.has10 = adding;
    return { ok: true, ms: now() - started, kind: adding ? "add" : "remove" };
  };
}

/** The realistic order: generate-code, then transmit that code (2 POSTs per order). */
export function cycleStep(base, clients, agent, ledger) {
  return async (i) => {
    const c = clients[i];
    const started = now();
    const gen = await request(base, {
      method: "POST",
      path: "/review",
      form: { intent: "generate-code" },
      headers: { cookie: c.jar.header(["mixtape-auth", "mixtape-deck"]) },
      agent,
    });
    if (gen.status !== 303) return { ok: false, error: `generate-code answered ${gen.status}` };
    const deck = new Jar().update(gen.setCookies).get("mixtape-deck");
    const code = decodeDeckCookie(deck).code;
    const res = await request(base, {
      method: "POST",
      path: "/review",
      form: { intent: "transmit", code },
      headers: { cookie: `mixtape-auth=${c.jar.get("mixtape-auth")}; mixtape-deck=${deck}` },
      agent,
    });
    if (res.status === 303 && transmittedTo(res.headers.location, code)) {
      ledger.ok.push(code);
      return { ok: true, ms: now() - started };
    }
    ledger.failed.push(code);
    return { ok: false, error: `transmit answered ${res.status}` };
  };
}
