// Requests over a socket of their own, for what fetch cannot send: a body cut off mid-way (the
// socket closed after half of its Content-Length), a body that trickles in, and a body sent whole
// whatever its framing. Each tells what the server answered and whether it closed the connection.
import net from "node:net";

export type RawRequest = { method: string; path: string; headers: Record<string, string>; body: Buffer };

export type Answer = {
  /** The status of the server's answer; null when none came. */
  status: number | null;
  /** The answer as text (head and body). */
  text: string;
  /** The server ended the connection (FIN or reset) before the client did. */
  closedByServer: boolean;
  /** Body bytes the client wrote. */
  sent: number;
};

const head = (port: number, request: RawRequest, length: number) =>
  `${request.method} ${request.path} HTTP/1.1\r\n` +
  Object.entries({ host: `127.0.0.1:${port}`, "content-length": String(length), ...request.headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("") +
  "\r\n";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Connection = {
  socket: net.Socket;
  answer: Promise<Answer>;
  sent: { bytes: number };
  closed(): boolean;
  /** Some of the answer has come. */
  answered(): boolean;
  /** The answer has come whole (by its Content-Length or its last chunk). */
  complete(): boolean;
};

function connect(port: number): Connection {
  const socket = net.connect(port, "127.0.0.1");
  const sent = { bytes: 0 };
  let text = "";
  let byServer = false;
  let closed = false;
  socket.setNoDelay(true);
  socket.on("data", (chunk) => (text += chunk.toString("latin1")));
  socket.on("end", () => (byServer = true));
  const answer = new Promise<Answer>((resolve) => {
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET" || error.code === "EPIPE") byServer = true;
    });
    socket.on("close", () => {
      closed = true;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: status ? Number(status[1]) : null, text, closedByServer: byServer, sent: sent.bytes });
    });
  });
  const complete = () => {
    const end = text.indexOf("\r\n\r\n");
    if (end < 0) return false;
    const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
    if (length) return text.length - end - 4 >= Number(length[1]);
    return /\r\ntransfer-encoding: *chunked/i.test(text.slice(0, end))
      ? text.endsWith("\r\n0\r\n\r\n")
      : /^HTTP\/1\.1 (204|304)/.test(text);
  };
  return { socket, answer, sent, closed: () => closed, answered: () => text.length > 0, complete };
}

const write = (socket: net.Socket, bytes: Buffer | string) =>
  new Promise<void>((resolve) => {
    if (socket.destroyed) return resolve();
    socket.write(bytes, () => resolve());
  });

/** Sends the head (Content-Length of the whole body) and `fraction` of the body, then closes the socket: the client is gone. */
export async function cutOff(port: number, request: RawRequest, fraction = 0.5): Promise<void> {
  const { socket, answer } = connect(port);
  await write(socket, head(port, request, request.body.length));
  await write(socket, request.body.subarray(0, Math.floor(request.body.length * fraction)));
  await sleep(150); // the server reads what came before the connection drops
  socket.destroy();
  await answer;
}

/** Sends the request whole (the body as it is, whatever its Content-Length says) and reads the answer until it is whole or the server closes. */
export async function sendWhole(port: number, request: RawRequest, contentLength = request.body.length) {
  const { socket, answer, closed, complete } = connect(port);
  await write(socket, Buffer.concat([Buffer.from(head(port, request, contentLength), "latin1"), request.body]));
  while (!closed() && !complete()) await sleep(10);
  socket.destroy();
  return answer;
}

export type Trickle = {
  /** Settles when the connection closes. */
  answer: Promise<Answer>;
  /** Whether the connection is still open. */
  open(): boolean;
  /** Whether the server has begun to answer (an answer before the body, or a timeout's, that may still linger open). */
  answered(): boolean;
  /** The client goes away (for a body the server is still reading). */
  cut(): void;
};

/**
 * Sends the head and `start` bytes, then one more byte every gapMs until the server closes the
 * connection or the body is whole: an answer does not stop it (a browser sends its whole file
 * however early the answer comes), so a server that drains what is left keeps it open.
 */
export function trickle(port: number, request: RawRequest, { start = 0, gapMs = 1_000 } = {}): Trickle {
  const connection = connect(port);
  const { socket, sent } = connection;
  void (async () => {
    await write(socket, head(port, request, request.body.length));
    await write(socket, request.body.subarray(0, start));
    sent.bytes = start;
    while (!connection.closed() && sent.bytes < request.body.length) {
      await sleep(gapMs);
      if (connection.closed()) break;
      await write(socket, request.body.subarray(sent.bytes, sent.bytes + 1));
      sent.bytes++;
    }
  })();
  return {
    answer: connection.answer,
    open: () => !connection.closed(),
    answered: connection.answered,
    cut: () => socket.destroy(),
  };
}
