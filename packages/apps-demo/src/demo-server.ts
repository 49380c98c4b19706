// The MCP Apps demo (`pnpm demo:apps`): the published example servers in one MCPServerSet, the
// apps channel and the page (Vite, from source: no build needed) on one origin, the sandbox proxy
// on a second. Open the printed URL, pick a tool, call it, use its app. PORT=0 takes a free port.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createAppsHandler, createSandboxProxyHandler } from "@mcp-tool-adapter/apps/server";
import { appsStdioServer, everythingStdioServer } from "@mcp-tool-adapter/test-servers";
import { MCPServerSet } from "mcp-tool-adapter";
import { createServer as createViteServer, defaultClientConditions } from "vite";

const PORT = Number(process.env.PORT ?? 5173);
const HOST = "127.0.0.1";
const stdio = (launch: { command: string; args: string[] }) => ({ transport: "stdio" as const, ...launch });
// The demo's notes server, from its TypeScript source through tsx (resolved here, not from the cwd).
const notesServer = {
  command: process.execPath,
  args: ["--import", import.meta.resolve("tsx"), fileURLToPath(new URL("notes-server.ts", import.meta.url))],
};

const servers = new MCPServerSet({
  basic: stdio(appsStdioServer("basic-vanillajs")),
  budget: stdio(appsStdioServer("budget-allocator")),
  monitor: stdio(appsStdioServer("system-monitor")),
  // An app whose button calls a tool that writes: the page asks before it runs.
  notes: stdio(notesServer),
  // A server without apps: its tools list and call as before.
  everything: stdio(everythingStdioServer()),
});
const report = await servers.connect();
for (const server of report.servers)
  console.log(`${server.name}: ${server.status}${server.error === undefined ? "" : ` (${server.error.message})`}`);

const listen = (server: Server, port: number) =>
  new Promise<number>((resolve) => server.listen(port, HOST, () => resolve((server.address() as AddressInfo).port)));

const vite = await createViteServer({
  root: new URL("../web", import.meta.url).pathname,
  configFile: false,
  appType: "spa",
  logLevel: "warn",
  server: { middlewareMode: true },
  // The workspace packages from their TypeScript sources, as the tests run them.
  resolve: { conditions: ["@mcp-tool-adapter/source", ...defaultClientConditions] },
});
const apps = createAppsHandler({ servers, basePath: "/api/apps" });
let sandboxUrl = "";
const host = createServer((request, response) => {
  if (request.url?.startsWith("/api/apps/") === true) return apps(request, response);
  if (request.url === "/demo-config.json") {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ sandboxUrl }));
    return;
  }
  vite.middlewares(request, response);
});
const hostOrigin = `http://${HOST}:${await listen(host, PORT)}`;
// The sandbox: the same machine under another name, so another origin (any free port).
const sandbox = createServer(createSandboxProxyHandler({ hostOrigins: [hostOrigin] }));
sandboxUrl = `http://localhost:${await listen(sandbox, 0)}/sandbox.html`;
console.log(`MCP Apps demo: open ${hostOrigin}/ (sandbox on ${new URL(sandboxUrl).origin}); Ctrl-C stops it.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  host.closeAllConnections();
  sandbox.closeAllConnections();
  await Promise.all([
    vite.close(),
    new Promise((resolve) => host.close(resolve)),
    new Promise((resolve) => sandbox.close(resolve)),
  ]);
  await servers.close();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
