// Small process helpers shared by the test supports.
import net from "node:net";
export { isProcessAlive } from "~/server/backend/lock.server";

/** A TCP port that was free a moment ago, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
