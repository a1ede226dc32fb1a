// Runs fauxqs (an S3 emulator that needs Node 22.5 or newer) under the Node binary it is
// started with: tests/support/storage-adapters.ts starts it as `$NODE24_BIN this-file FAUXQS_DIR`.
// Prints {"port":N} once listening; stops on SIGTERM or when its parent goes away.
const dir = process.argv[2];
const { startFauxqs } = await import(new URL(`file://${dir}/dist/app.js`).href);
const server = await startFauxqs({ port: 0, host: "127.0.0.1", logger: false });
process.stdout.write(`${JSON.stringify({ port: server.port, version: process.version })}\n`);
const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.stdin.on("end", stop);
process.stdin.resume();
