/**
 * The bench's generated MCP stdio server: `--tools=N` tools with distinct, realistic input
 * schemas, listed in pages of `--page-size=M` (cursor = next offset). Every tool echoes its
 * arguments. Run as `node --import tsx generated-tools-server.ts --tools=5000 --page-size=100`.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { generatedTools } from "./generated-tools.js";

// A safety net only: a bench that died without closing our stdin must not leave us running.
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

// The low-level Server, not McpServer: it lists plain JSON Schemas and paginates with our own cursor.
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

process.stdin.once("end", () => process.exit(0));
setTimeout(() => process.exit(0), MAX_LIFETIME_MS).unref();
await server.connect(new StdioServerTransport());
