// The baseline's HTTP server: express + @react-router/express, with the same
// compression middleware and static-file handling as server/app.ts, and nothing else
// (no security headers, no CSP nonce, no origin check). Usage: PORT=... node server.js
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import express from "express";
import compression from "compression";
import { createRequestHandler } from "@react-router/express";

const dir = path.dirname(fileURLToPath(import.meta.url));
const build = await import(pathToFileURL(path.join(dir, "build/server/index.js")).href);
const clientDir = path.join(dir, "build/client");

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
app.use(express.static(clientDir, { maxAge: "1h", index: false }));
app.all("/{*splat}", createRequestHandler({ build, mode: process.env.NODE_ENV }));

const server = app.listen(Number(process.env.PORT ?? 3100), process.env.HOST ?? "127.0.0.1", () => {
  console.log(`baseline at http://localhost:${server.address().port}`);
});
server.keepAliveTimeout = 65_000;
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
