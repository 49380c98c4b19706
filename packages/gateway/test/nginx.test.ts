import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLI_BIN, GATEWAY_DIR, realUpstreams, type Upstreams } from "./fixtures.js";

// Two `mcp-tool-adapter serve --http` processes behind a real nginx on 127.0.0.1 (Debian's
// package, installed by .ci/run), with the config of docs/gateway.md: each gateway starts its
// session ids with its own prefix (--session-prefix), nginx sends a request with a session id to
// the gateway its prefix names and an initialize (no id yet) round-robin, so 2025-era sessions stay
// on the gateway that opened them and spread over both.
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => spawnSync(path, ["-v"]).status === 0);

interface RunningGateway {
  readonly process: ChildProcess;
  readonly port: number;
  /** Every line the gateway wrote on stderr. */
  readonly log: string[];
}

let upstreams: Upstreams;
const gateways: RunningGateway[] = [];
let nginx: ChildProcess | undefined;
let nginxPort: number;

/** A free port for nginx (which cannot listen on port 0): bind a probe socket, note its port, close it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

function startGateway(prefix: string): Promise<RunningGateway> {
  const args = [CLI_BIN, "serve", "--config", upstreams.configFile, "--http", "--session-prefix", prefix];
  const child = spawn(process.execPath, args, {
    cwd: GATEWAY_DIR,
    stdio: ["ignore", "ignore", "pipe"],
  });
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

async function startNginx(ports: readonly number[]): Promise<void> {
  const dir = upstreams.directory.path;
  nginxPort = await freePort();
  const config = `
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
    listen 127.0.0.1:${nginxPort};
    location /mcp {
      proxy_pass http://$mcp_gateway;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
`;
  const file = join(dir, "nginx.conf");
  await writeFile(file, config);
  nginx = spawn(NGINX ?? "nginx", ["-p", dir, "-c", file, "-e", join(dir, "nginx-error.log")], { stdio: "ignore" });
  // Ready when it answers (any HTTP status).
  const end = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${nginxPort}/mcp`);
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe("two gateways behind nginx", () => {
  beforeAll(async () => {
    if (NGINX === undefined)
      throw new Error("nginx is not installed: apt-get install nginx-light (.ci/run installs it)");
    upstreams = await realUpstreams(["everything", "memory"]);
    gateways.push(...(await Promise.all([startGateway("g1"), startGateway("g2")])));
    await startNginx(gateways.map((gateway) => gateway.port));
  }, 180_000);

  afterAll(async () => {
    nginx?.kill("SIGTERM");
    await Promise.all(
      gateways.map(
        (gateway) =>
          new Promise<void>((resolve) => {
            if (gateway.process.exitCode !== null) return resolve();
            gateway.process.once("exit", () => resolve());
            gateway.process.kill("SIGTERM");
          }),
      ),
    );
    if (nginx !== undefined && nginx.exitCode === null) await new Promise((resolve) => nginx?.once("exit", resolve));
    await upstreams.remove();
  }, 60_000);

  it("keeps every 2025-era session on its gateway and spreads sessions over both", { timeout: 180_000 }, async () => {
    const clients = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const client = new Client({ name: `balanced-${index}`, version: "1" });
        await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${nginxPort}/mcp`)));
        return client;
      }),
    );
    try {
      const results = await Promise.all(
        clients.flatMap((client, index) =>
          Array.from({ length: 5 }, async (_, call) => {
            const result = await client.callTool({
              name: "everything__echo",
              arguments: { message: `c${index}-${call}` },
            });
            return JSON.stringify(result.content).includes(`c${index}-${call}`);
          }),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(60);
      const opened = gateways.map((gateway) => gateway.log.filter((line) => line.includes("HTTP session")).length);
      expect(opened[0]).toBeGreaterThan(0);
      expect(opened[1]).toBeGreaterThan(0);
      expect((opened[0] ?? 0) + (opened[1] ?? 0)).toBe(12);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
