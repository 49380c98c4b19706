/**
 * The bench's generated MCP server: `--tools=N` tools with distinct, realistic input schemas,
 * listed in pages of `--page-size=M` (cursor = next offset). Every tool echoes its arguments.
 * Over stdio by default; with `--http`, streamable HTTP on a free 127.0.0.1 port, announced on
 * stdout as `listening <url>`. With `--grandchild`, it starts a helper process (`sleep`) and leaves
 * it running, as servers that start a database or a language server do: stopping the server then
 * means stopping its process family. Run as
 * `node --import tsx generated-tools-server.ts --tools=5000 --page-size=100`.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { generatedTools } from "./generated-tools.js";

// A safety net only (stdio): a bench that died without closing our stdin must not leave us running.
const MAX_LIFETIME_MS = 10 * 60_000;

function numberFlag(name: string, fallback: number): number {
  const prefix = `--${name}=`;
  const raw = process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`generated-tools-server: --${name} must be a positive integer, got "${raw ?? ""}"`);
  return value;
}

const tools = generatedTools(numberFlag("tools", 5_000));
const pageSize = numberFlag("page-size", 100);
const toolNames = new Set(tools.map((tool) => tool.name));

/** One MCP server per session (a Server instance serves one transport). */
// The low-level Server, not McpServer: it lists plain JSON Schemas and paginates with our own cursor.
// eslint-disable-next-line @typescript-eslint/no-deprecated
function createGeneratedServer(): Server {
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const server = new Server({ name: "bench-generated-tools", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const cursor = request.params?.cursor;
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(start) || start < 0 || start > tools.length) {
      throw new McpError(ErrorCode.InvalidParams, `generated-tools-server: invalid cursor ${JSON.stringify(cursor)}`);
    }
    const end = start + pageSize;
    return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: String(end) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    if (!toolNames.has(request.params.name))
      throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    return { content: [{ type: "text", text: JSON.stringify(request.params.arguments ?? {}) }] };
  });
  return server;
}

/** Streamable HTTP with a session per client, as the SDK's own server examples do it. */
async function serveHttp(): Promise<void> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const sessionId = request.headers["mcp-session-id"];
    let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (transport === undefined) {
      const fresh = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, fresh);
        },
      });
      fresh.onclose = () => {
        if (fresh.sessionId !== undefined) sessions.delete(fresh.sessionId);
      };
      await createGeneratedServer().connect(fresh);
      transport = fresh;
    }
    await transport.handleRequest(request, response);
  };
  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  process.stdout.write(`listening http://127.0.0.1:${port}/mcp\n`);
  // The bench closes our stdin (or dies) when done.
  process.stdin.resume();
}

process.stdin.once("end", () => process.exit(0));
if (process.argv.includes("--grandchild")) {
  // Never stopped by this server: whoever stops the server must stop its family.
  spawn("sleep", [String(MAX_LIFETIME_MS / 1000)], { stdio: "ignore" }).unref();
}
if (process.argv.includes("--http")) {
  // Serves a whole comparison (longer than any lifetime cap); it ends when the bench closes our stdin or dies.
  await serveHttp();
} else {
  setTimeout(() => process.exit(0), MAX_LIFETIME_MS).unref();
  await createGeneratedServer().connect(new StdioServerTransport());
}
