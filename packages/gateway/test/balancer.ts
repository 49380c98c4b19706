import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { listDescendantProcesses } from "@mcp-tool-adapter/test-servers";
import { GATEWAY_DIR } from "./fixtures.js";

/**
 * The CLI's sources run as the bin runs them in a checkout, but in this one process (the bin
 * starts a child for them): a test that kills a gateway kills the process that serves.
 */
const CLI_SOURCE = fileURLToPath(new URL("../../mcp-tool-adapter/src/cli/main.ts", import.meta.url));
const TSX = import.meta.resolve("tsx");

// Gateway processes (`mcp-tool-adapter serve --http`) behind a real nginx on 127.0.0.1 (Debian's
// package, installed by .ci/run), with the config of docs/gateway.md: a request with a 2025 session
// id goes to the gateway its prefix names, everything else (an initialize, every 2026-07-28
// request) round-robin.

export const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => spawnSync(path, ["-v"]).status === 0);

export interface RunningGateway {
  readonly process: ChildProcess;
  readonly port: number;
  /** Every line the gateway wrote on stderr. */
  readonly log: string[];
}

export interface RunningNginx {
  readonly process: ChildProcess;
  readonly port: number;
  /** http://127.0.0.1:<port>/mcp */
  readonly url: string;
}

/** A free port for nginx (which cannot listen on port 0): bind a probe socket, note its port, close it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

/** The MCP endpoint of a gateway started here. */
export function mcpUrlOf(gateway: RunningGateway | undefined): string {
  return `http://127.0.0.1:${String(gateway?.port)}/mcp`;
}

/**
 * `count` gateway copies that seal request states with one key and say where they are
 * (`--request-state-key-env`, `--peer-url` naming each copy's own port), so any copy can answer or
 * pass on a retry of a call another one holds. Session prefixes `<prefix>1`, `<prefix>2`, ... The
 * key goes in `keyVariable` of this process's environment, which the copies inherit; the caller
 * deletes it when done.
 */
export async function startPeerCopies(
  configFile: string,
  copies: { count: number; prefix: string; keyVariable: string },
): Promise<RunningGateway[]> {
  process.env[copies.keyVariable] = `the-key-${copies.prefix}-copies-share-0123456789abcdef`;
  const ports = await Promise.all(Array.from({ length: copies.count }, () => freePort()));
  return Promise.all(
    ports.map((port, index) =>
      startGateway(configFile, `${copies.prefix}${String(index + 1)}`, [
        "--port",
        String(port),
        "--request-state-key-env",
        copies.keyVariable,
        "--peer-url",
        `http://127.0.0.1:${String(port)}/mcp`,
      ]),
    ),
  );
}

/** `mcp-tool-adapter serve --config <configFile> --http --session-prefix <prefix>` on a free port; resolves once it serves. */
export function startGateway(
  configFile: string,
  prefix: string,
  extraArgs: readonly string[] = [],
): Promise<RunningGateway> {
  const args = [
    "--import",
    TSX,
    "--conditions=@mcp-tool-adapter/source",
    CLI_SOURCE,
    "serve",
    "--config",
    configFile,
    "--http",
    "--session-prefix",
    prefix,
    ...extraArgs,
  ];
  const child = spawn(process.execPath, args, { cwd: GATEWAY_DIR, stdio: ["ignore", "ignore", "pipe"] });
  const log: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start in 90 s:\n${log.join("\n")}`)), 90_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited (${String(code)}):\n${log.join("\n")}`));
    });
    let rest = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      log.push(...lines);
      const serving = lines.map((line) => /serving MCP at http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(line)).find(Boolean);
      if (serving) {
        clearTimeout(timer);
        resolve({ process: child, port: Number(serving[1]), log });
      }
    });
  });
}

/** How an nginx differs from docs/gateway.md's config: `buffering` turns proxy_buffering on (nginx's default). */
export interface NginxVariant {
  readonly buffering?: boolean;
}

/** The nginx config of docs/gateway.md for gateways on `ports` (the n-th started with prefix `g<n>`). */
export function nginxConfig(
  ports: readonly number[],
  listenPort: number,
  dir: string,
  variant: NginxVariant = {},
): string {
  return `
daemon off;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "nginx-error.log")} warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${join(dir, "nginx-body")};
  proxy_temp_path ${join(dir, "nginx-proxy")};
  fastcgi_temp_path ${join(dir, "nginx-fastcgi")};
  uwsgi_temp_path ${join(dir, "nginx-uwsgi")};
  scgi_temp_path ${join(dir, "nginx-scgi")};
  upstream mcp_gateways {
${ports.map((port) => `    server 127.0.0.1:${port};`).join("\n")}
  }
  map $http_mcp_session_id $mcp_gateway {
${ports.map((port, index) => `    ~^g${index + 1}- 127.0.0.1:${port};`).join("\n")}
    default mcp_gateways;
  }
  server {
    listen 127.0.0.1:${listenPort};
    location /mcp {
      proxy_pass http://$mcp_gateway;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 2;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_buffering ${variant.buffering === true ? "on" : "off"};
      proxy_read_timeout 1h;
    }
  }
}
`;
}

/** nginx in front of the gateways on `ports`, its files in `dir`; resolves once it answers. */
export async function startNginx(
  ports: readonly number[],
  dir: string,
  variant: NginxVariant = {},
): Promise<RunningNginx> {
  if (NGINX === undefined) throw new Error("nginx is not installed: apt-get install nginx-light (.ci/run installs it)");
  const port = await freePort();
  const file = join(dir, "nginx.conf");
  await writeFile(file, nginxConfig(ports, port, dir, variant));
  const child = spawn(NGINX, ["-p", dir, "-c", file, "-e", join(dir, "nginx-error.log")], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}/mcp`;
  // Ready when it answers (any HTTP status).
  const end = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(url);
      return { process: child, port, url };
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Stops a child process (SIGTERM) and waits for it to exit; nothing to do when it already has. */
export function stopProcess(child: ChildProcess | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * Kills a gateway copy the way a machine or container dies: SIGKILL to its upstream servers (its
 * child processes) and to the gateway itself, at once, then waits until the gateway is gone. Its
 * connections are reset, nothing it was running finishes.
 */
export async function killCopy(gateway: RunningGateway): Promise<void> {
  const pid = gateway.process.pid;
  if (pid === undefined || gateway.process.exitCode !== null || gateway.process.signalCode !== null) return;
  const exited = new Promise((resolve) => gateway.process.once("exit", resolve));
  for (const child of listDescendantProcesses(pid)) {
    try {
      process.kill(child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  gateway.process.kill("SIGKILL");
  await exited;
}
