import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  createTempDirectory,
  findFreePort,
  startFaultHttpServer,
  type FaultBehavior,
  type FaultHttpServer,
  type RecordedRequest,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { MCPProtocolError, RPC_CONNECTION_CLOSED } from "@mcp-tool-adapter/core";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createStreamableHttpTransport, HttpTransportError } from "../src/index.js";
import { rejectionOf, waitFor } from "./helpers.js";

// A proxy's 502/503/504 to a request on a 2025-era session, read by core's rule as engine-2026
// reads it on 2026-07-28: the request was cut off between us and the server, so it fails with the
// closed-connection code and the adapter's recovery decides whether to send it again. Through a
// real nginx in front of a scripted upstream (nginx makes the 502 and the 504 itself), and from
// the upstream directly for statuses nginx passes on.

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => existsSync(path));

let upstream: FaultHttpServer | undefined;
let nginx: ChildProcess | undefined;
let directory: TempDirectory | undefined;
let transport: Transport | undefined;

afterEach(async () => {
  await transport?.close();
  if (nginx !== undefined && nginx.exitCode === null && nginx.signalCode === null) {
    const exited = new Promise((resolve) => nginx?.once("exit", resolve));
    nginx.kill("SIGTERM");
    await exited;
  }
  await upstream?.close();
  await directory?.remove();
  transport = upstream = nginx = directory = undefined;
});

const HTML_503 = "<html><body><h1>503 Service Unavailable</h1></body></html>";
const RPC_503 = { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Server is shutting down" } };

function bodyOf(request: RecordedRequest): { id?: unknown; method?: string; params?: { name?: string } } {
  return request.body === "" ? {} : (JSON.parse(request.body) as { id?: unknown; method?: string });
}

/** The upstream: a session for `initialize`, and per tool name what becomes of a call. */
function upstreamPlan(request: RecordedRequest): FaultBehavior {
  if (request.method === "GET") return { kind: "status", status: 405 };
  if (request.method === "DELETE") return { kind: "status", status: 200 };
  const message = bodyOf(request);
  // The upstream dies while taking a notification: nginx answers 502.
  if (message.method === "notifications/roots/list_changed") return { kind: "close" };
  if (message.id === undefined) return { kind: "status", status: 202 };
  if (message.method === "initialize") {
    const result = {
      protocolVersion: "2025-11-25",
      capabilities: { tools: {} },
      serverInfo: { name: "u", version: "1" },
    };
    return {
      kind: "status",
      status: 200,
      body: { jsonrpc: "2.0", id: message.id, result },
      headers: { "mcp-session-id": "s-1" },
    };
  }
  switch (message.params?.name) {
    // The upstream dies mid-call: nginx answers 502 Bad Gateway.
    case "dies":
      return { kind: "close" };
    // The upstream never answers: nginx answers 504 Gateway Timeout after proxy_read_timeout.
    case "hangs":
      return { kind: "hang" };
    case "unavailable":
      return { kind: "status", status: 503, body: HTML_503, headers: { "content-type": "text/html" } };
    // A 503 that carries a JSON-RPC answer is the server's own answer, not a cut-off.
    case "refuses":
      return { kind: "status", status: 503, body: RPC_503 };
    default:
      return { kind: "status", status: 200, body: { jsonrpc: "2.0", id: message.id, result: { content: [] } } };
  }
}

async function startNginx(upstreamPort: number): Promise<string> {
  if (NGINX === undefined) throw new Error("nginx is not installed: apt-get install nginx-light (.ci/run installs it)");
  directory = await createTempDirectory("transport-http-proxy-");
  const dir = directory.path;
  const port = await findFreePort();
  const file = join(dir, "nginx.conf");
  await writeFile(
    file,
    `daemon off;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "nginx-error.log")} warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${join(dir, "body")};
  proxy_temp_path ${join(dir, "proxy")};
  fastcgi_temp_path ${join(dir, "fastcgi")};
  uwsgi_temp_path ${join(dir, "uwsgi")};
  scgi_temp_path ${join(dir, "scgi")};
  server {
    listen 127.0.0.1:${port};
    location /mcp {
      proxy_pass http://127.0.0.1:${upstreamPort};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_read_timeout 1s;
    }
  }
}
`,
  );
  nginx = spawn(NGINX, ["-p", dir, "-c", file, "-e", join(dir, "nginx-error.log")], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}/mcp`;
  // Ready once it answers at all (the upstream's 405 to a GET).
  const deadline = Date.now() + 30_000;
  while ((await fetch(url).catch(() => undefined)) === undefined) {
    if (Date.now() > deadline) throw new Error(`nginx did not answer at ${url} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return url;
}

/** A transport through nginx (or straight to the upstream), past the handshake. */
async function connectedTransport(throughProxy: boolean) {
  upstream = await startFaultHttpServer(upstreamPlan);
  const url = throughProxy ? await startNginx(upstream.port) : upstream.url;
  const created = createStreamableHttpTransport({ url });
  transport = created;
  const heard: JSONRPCMessage[] = [];
  const reported: Error[] = [];
  created.onmessage = (message) => heard.push(message);
  created.onerror = (error) => reported.push(error);
  await created.start();
  await created.send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  await waitFor(() => heard.length === 1);
  created.setProtocolVersion?.("2025-11-25");
  await created.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { transport: created, heard, reported };
}

const call = (id: number, name: string): JSONRPCMessage => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});

function expectCutOff(error: unknown, status: number): void {
  expect(MCPProtocolError.isInstance(error), `not a cut-off: ${String(error)}`).toBe(true);
  const cutOff = error as MCPProtocolError;
  expect([cutOff.rpcCode, cutOff.data]).toEqual([RPC_CONNECTION_CLOSED, { status }]);
  expect(cutOff.message).toContain(`HTTP ${status} from a proxy in between`);
  // The classified HTTP failure is its cause, and what onerror heard.
  expect(HttpTransportError.isInstance(cutOff.cause) && [cutOff.cause.code, cutOff.cause.status]).toEqual([
    "SERVER_ERROR",
    status,
  ]);
}

describe("a proxy's 502/503/504 to a request", () => {
  it("through nginx: an upstream that dies mid-call (502) or never answers (504) cuts the request off", async () => {
    const { transport, reported } = await connectedTransport(true);
    expectCutOff(await rejectionOf(transport.send(call(1, "dies"))), 502);
    expectCutOff(await rejectionOf(transport.send(call(2, "hangs"))), 504);
    // Each heard once, as the failure of a request (not of the event stream).
    expect(reported.map((error) => (error as { status?: unknown }).status)).toEqual([502, 504]);
    for (const error of reported) expect(error.message).toMatch(/^Streamable HTTP request to http:/);
    // The session goes on: the next call through the same proxy is answered.
    await transport.send(call(3, "works"));
  });

  it("an upstream's own 503 without a JSON-RPC answer cuts the request off; one with a JSON-RPC answer stays the server's error", async () => {
    const { transport } = await connectedTransport(false);
    expectCutOff(await rejectionOf(transport.send(call(1, "unavailable"))), 503);
    const refused = await rejectionOf(transport.send(call(2, "refuses")));
    expect(HttpTransportError.isInstance(refused) && [refused.code, refused.status]).toEqual(["SERVER_ERROR", 503]);
  });

  it("an initialize answered 503 stays the classified SERVER_ERROR of a connect that failed", async () => {
    upstream = await startFaultHttpServer({ kind: "status", status: 503, body: HTML_503 });
    transport = createStreamableHttpTransport({ url: upstream.url });
    await transport.start();
    const failure = await rejectionOf(
      transport.send({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    );
    expect(HttpTransportError.isInstance(failure) && [failure.code, failure.status]).toEqual(["SERVER_ERROR", 503]);
  });

  it("a notification answered 502 stays a classified SERVER_ERROR: only a request can be sent again", async () => {
    const { transport } = await connectedTransport(true);
    const failure = await rejectionOf(transport.send({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }));
    expect(HttpTransportError.isInstance(failure) && [failure.code, failure.status]).toEqual(["SERVER_ERROR", 502]);
  });
});
