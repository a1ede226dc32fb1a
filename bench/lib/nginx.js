// nginx, the floor of the drop's download rows (bench/scenarios/drop-measure.js): what a plain file server does on this machine.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { freePort, mkTemp, spawnLogged, stopChild } from "./index.js";

/** nginx from Debian (apt-get when missing), one worker, serving dir on a free port; its stop. */
export async function startNginx(dir) {
  if (!fs.existsSync("/usr/sbin/nginx")) {
    execFileSync("apt-get", ["update", "-qq"], { stdio: "ignore" });
    execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "nginx-light"], {
      stdio: "ignore",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  }
  const prefix = await mkTemp("mixtape-bench-nginx-");
  const port = await freePort();
  const conf = path.join(prefix, "nginx.conf");
  await fsp.writeFile(
    conf,
    `user root;
worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  types { audio/wav wav; }
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${dir};
  }
}
`,
  );
  const child = spawnLogged("/usr/sbin/nginx", ["-p", prefix, "-c", conf], { name: "nginx" });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${child.log}`);
    const ok = await new Promise((resolve) =>
      http
        .get(`${base}/`, (res) => {
          res.resume();
          resolve(true);
        })
        .on("error", () => resolve(false)),
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const version = spawnSync("/usr/sbin/nginx", ["-v"], { encoding: "utf8" }).stderr.trim();
  return {
    base,
    version,
    async stop() {
      await stopChild(child);
      await fsp.rm(prefix, { recursive: true, force: true });
    },
  };
}
