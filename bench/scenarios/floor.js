#!/usr/bin/env node
// The floor under every page: Node's own http module answering the same bytes as our `/`
// (its HTML, compressed once, from memory). With the stock React Router page of
// bench/baseline it shows where each millisecond of `/` goes: Node, React Router and a
// render, then our pipeline, our render and the database. Reported, never budgeted.
// Used by `npm run bench`; alone: node bench/run.js floor <url-of-a-page> (prints the HTML size).
import http from "node:http";
import zlib from "node:zlib";
import { pathToFileURL } from "node:url";

/** Serves `html` (brotli once, or gzip, as accepted) at every path; resolves with the server's base URL. */
export function startFloor(html) {
  const plain = Buffer.from(html);
  const br = zlib.brotliCompressSync(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
  const gzip = zlib.gzipSync(plain);
  const server = http.createServer((req, res) => {
    const accept = req.headers["accept-encoding"] ?? "";
    const [body, encoding] = /\bbr\b/.test(accept) ? [br, "br"] : /\bgzip\b/.test(accept) ? [gzip, "gzip"] : [plain, null];
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-length": body.length,
      vary: "accept-encoding",
      ...(encoding ? { "content-encoding": encoding } : {}),
    });
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ base: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }),
    ),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const html = await (await fetch(process.argv[2])).text();
  const floor = await startFloor(html);
  console.log(`${floor.base} serves ${html.length} bytes of HTML`);
}
