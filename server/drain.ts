// The HTTP server's stop at SIGTERM (docs/decisions/011-shutdown.md): no new work is taken,
// every request already on a connection is answered, then the connections close.
// - Node's own server.close() also destroys every connection without a request in progress,
//   including one accepted a moment ago whose request is still on its way: cut off. So the
//   listening socket is closed alone (net.Server's close).
// - Closing a listening socket resets the connections the kernel completed but the process
//   has not accepted yet (its listen backlog): a client that sent its request gets a reset,
//   and cannot know whether it was done. A busy server has dozens there (PGlite runs on the
//   event loop). So the socket stays open until a turn of the event loop (whose poll phase
//   accepts all that wait) accepts nothing; a connection accepted after the signal is
//   answered 503 with Retry-After at once, without touching the database.
// - A kept-alive connection between two requests closes at once (as with Node's close); one
//   that has not sent its first request gets IDLE_MOMENT_MS to send it, then closes.
import http from "node:http";
import net from "node:net";

/** How long a connection without a request may still send one once the server stops. */
export const IDLE_MOMENT_MS = 500;

export type DrainResult = {
  /** Requests still running when the grace ran out (their connections were destroyed). */
  cut: number;
  /** Requests on connections accepted after the signal: answered 503 at once. */
  refused: number;
  /** Connections closed after IDLE_MOMENT_MS without having sent a request. */
  unheard: number;
};

export type DrainableServer = {
  server: http.Server;
  /** Resolves once every connection closed; requests still running after graceMs are cut off. */
  stop(graceMs: number): Promise<DrainResult>;
};

export function drainableServer(handler: http.RequestListener, refusal: string): DrainableServer {
  const requests = new Map<net.Socket, number>();
  const heard = new WeakSet<net.Socket>();
  const late = new WeakSet<net.Socket>();
  let accepted = 0;
  let refused = 0;
  let stopping = false;
  let idleMomentOver = false;
  let changed = () => {};

  const server = http.createServer((req, res) => {
    const socket = req.socket;
    heard.add(socket);
    requests.set(socket, (requests.get(socket) ?? 0) + 1);
    res.once("close", () => {
      if (!requests.has(socket)) return void changed(); // the connection closed first
      const left = (requests.get(socket) ?? 1) - 1;
      requests.set(socket, left);
      // An answer begun before the stop kept its connection alive: close it once written.
      if (left === 0 && idleMomentOver) socket.destroySoon();
      changed();
    });
    if (late.has(socket)) {
      refused++;
      res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "1", Connection: "close" });
      return void res.end(refusal);
    }
    // Node closes the connection after this answer.
    if (stopping) res.setHeader("Connection", "close");
    handler(req, res);
  });

  server.on("connection", (socket: net.Socket) => {
    accepted++;
    if (stopping) late.add(socket);
    requests.set(socket, 0);
    socket.once("close", () => {
      requests.delete(socket);
      changed();
    });
  });

  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const inFlight = () => [...requests.values()].some((count) => count > 0);

  /**
   * Once no request is running (answers after the signal are a 503, so that comes soon) and a
   * turn of the event loop accepted no connection: the listen backlog is then empty, and no
   * long callback runs between that turn's poll and the close. At the deadline in any case.
   */
  async function closeListener(deadline: number) {
    while (Date.now() < deadline) {
      if (inFlight()) {
        await pause(10);
        continue;
      }
      const seen = accepted;
      await turn();
      await turn();
      if (accepted === seen && !inFlight()) break;
    }
    // Its callback waits for every connection to end: the connections are awaited below.
    net.Server.prototype.close.call(server);
  }

  /** Resolves once `holds` is true (checked at every change of a connection), or after ms. */
  const until = (holds: () => boolean, ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        changed = () => {};
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      changed = () => {
        if (holds()) done();
      };
      changed();
    });
  const idle = () => [...requests].filter(([, count]) => count === 0).map(([socket]) => socket);

  return {
    server,
    async stop(graceMs) {
      const deadline = Date.now() + graceMs;
      stopping = true;
      await closeListener(deadline);
      // A kept-alive connection between requests closes now, as Node's own close does; one that
      // has sent nothing yet gets its moment.
      for (const socket of idle()) if (heard.has(socket)) socket.destroySoon();
      await until(() => idle().every((socket) => heard.has(socket)), Math.min(IDLE_MOMENT_MS, deadline - Date.now()));
      idleMomentOver = true;
      let unheard = 0;
      for (const socket of idle()) {
        if (!heard.has(socket)) unheard++;
        socket.destroySoon();
      }
      await until(() => requests.size === 0, deadline - Date.now());
      let cut = 0;
      for (const [socket, count] of requests) {
        cut += count;
        socket.destroy();
      }
      return { cut, refused, unheard };
    },
  };
}
