import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findFreePort } from "@mcp-tool-adapter/test-servers";
import { workerEnvironment } from "../workers/spawn-worker.js";

/**
 * The HTTP hop floor: nginx (the system's package) as a plain `proxy_pass` in front of the upstream
 * server, with keep-alive connections to it and no buffering either way. Over HTTP the gateway is
 * one more hop (two more loopback connections and wake-ups per call); this shows what that hop
 * costs in a proxy written in C that parses HTTP and nothing else, beside what ours costs.
 */
export interface RunningHopFloor {
  /** The MCP endpoint through nginx. */
  readonly url: string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** The nginx binary on this machine, or undefined (the side is then skipped). */
export function findNginx(): string | undefined {
  return ["/usr/sbin/nginx", "/usr/bin/nginx", "nginx"].find((path) => spawnSync(path, ["-v"]).status === 0);
}

/** nginx in front of `upstreamUrl` (http://127.0.0.1:<port>/mcp), its files in a fresh temporary directory. */
export async function startHopFloor(nginx: string, upstreamUrl: string): Promise<RunningHopFloor> {
  const upstream = new URL(upstreamUrl);
  const dir = await mkdtemp(join(tmpdir(), "http-hop-floor-"));
  const port = await findFreePort();
  const config = join(dir, "nginx.conf");
  const errorLog = join(dir, "error.log");
  await writeFile(config, nginxConfig({ dir, port, upstream: upstream.host }));
  const child = spawn(nginx, ["-p", dir, "-c", config, "-e", errorLog], {
    env: workerEnvironment(),
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}${upstream.pathname}`;
  const stop = async (): Promise<void> => {
    await stopProcess(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await untilAnswering(url, child);
  } catch (error) {
    const log = await readFile(errorLog, "utf8").catch(() => "");
    await stop();
    throw new Error(`gateway bench: nginx (the HTTP hop floor) did not start: ${String(error)}\n${log}`);
  }
  return { url, stop };
}

/** One worker, keep-alive to the upstream (HTTP/1.1, no Connection header passed on), nothing buffered. */
function nginxConfig(options: { dir: string; port: number; upstream: string }): string {
  const { dir, port, upstream } = options;
  return `
daemon off;
worker_processes 1;
pid ${join(dir, "nginx.pid")};
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${join(dir, "body")};
  proxy_temp_path ${join(dir, "proxy")};
  fastcgi_temp_path ${join(dir, "fastcgi")};
  uwsgi_temp_path ${join(dir, "uwsgi")};
  scgi_temp_path ${join(dir, "scgi")};
  upstream mcp_upstream {
    server ${upstream};
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://mcp_upstream;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host ${upstream};
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
`;
}

/** Resolves once nginx answers anything over HTTP; rejects when it exits or takes too long. */
async function untilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`nginx exited (${String(child.exitCode ?? child.signalCode)})`);
    try {
      const response = await fetch(url, { method: "GET" });
      await response.body?.cancel();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** SIGTERM (nginx's fast shutdown, which stops its worker too), then SIGKILL if it lingers. */
function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
