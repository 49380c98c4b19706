#!/usr/bin/env node
/**
 * counter-server.mjs: an MCP server whose counter outlives the process, for recovery tests (kill
 * it, restart it, and count how often each write really ran). Plain ESM run directly by node (no
 * build); its only dependency is the MCP SDK.
 *
 * Flags (argv):
 *   --state-dir=DIR        required. The state every process started on DIR shares:
 *                          DIR/writes.log  one line per executed write (the `id` it was given),
 *                                          appended synchronously before the answer is sent
 *                          DIR/starts.log  one line per start (the pid), written before serving
 *                          DIR/reads.log   one line per read-only call (the pid), appended when it starts
 *                          DIR/write-starts.log  one line per write that reached a server (`id pid`),
 *                                          appended when it starts (before its first wait)
 *                          DIR/down        when present at start: print an error to stderr and exit 1
 *                                          (a server that never comes back, until the file is removed)
 *   --http                 serve streamable HTTP on 127.0.0.1 (a free port; prints `listening port=N` on
 *                          stdout) instead of stdio. POST /forget-sessions drops every session, as a
 *                          restarted server would: a later request with an old Mcp-Session-Id gets
 *                          HTTP 404, and the client has to initialize a new session.
 *   --max-lifetime-ms=N    exit after N ms whatever happens (default 300000): a safety net
 *
 * Tools:
 *   read_count             read-only: answers `{"count":N,"pid":P}` (N = lines in writes.log)
 *   whoami {delayMs?}      read-only: waits `delayMs` (default 0), then answers `{"pid":P}`
 *   increment {id, delayMs?}  a write (not idempotent): waits `delayMs` (default 0), appends `id` to
 *                          writes.log, waits `delayMs` again, then answers `{"count":N}`. A kill in the
 *                          first wait cuts a write that did not run; in the second, one that did.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import process from "node:process";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";

const argv = process.argv.slice(2);
const flagValue = (name) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

const stateDir = flagValue("state-dir");
if (stateDir === undefined || stateDir === "") {
  process.stderr.write("counter-server: --state-dir=DIR is required\n");
  process.exit(2);
}
const writesFile = join(stateDir, "writes.log");
const readsFile = join(stateDir, "reads.log");
const startsFile = join(stateDir, "starts.log");
const writeStartsFile = join(stateDir, "write-starts.log");
if (existsSync(join(stateDir, "down"))) {
  process.stderr.write(`counter-server: ${join(stateDir, "down")} exists, refusing to start\n`);
  process.exit(1);
}
appendFileSync(startsFile, `${process.pid}\n`);
setTimeout(() => process.exit(0), Number(flagValue("max-lifetime-ms") ?? 300_000)).unref();

let count = existsSync(writesFile) ? readFileSync(writesFile, "utf8").split("\n").filter(Boolean).length : 0;

const TOOLS = [
  {
    name: "read_count",
    description: "Reads the counter.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true },
  },
  {
    name: "whoami",
    description: "Answers this server process's pid.",
    inputSchema: { type: "object", properties: { delayMs: { type: "integer", minimum: 0 } } },
    annotations: { readOnlyHint: true },
  },
  {
    name: "increment",
    description: "Adds one to the counter, recording the caller's id.",
    inputSchema: {
      type: "object",
      properties: { id: { type: "string", minLength: 1 }, delayMs: { type: "integer", minimum: 0 } },
      required: ["id"],
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  },
];

const text = (value) => ({ content: [{ type: "text", text: JSON.stringify(value) }] });
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function callTool({ name, arguments: args = {} }) {
  switch (name) {
    case "read_count":
      appendFileSync(readsFile, `${process.pid}\n`);
      return text({ count, pid: process.pid });
    case "whoami": {
      appendFileSync(readsFile, `${process.pid}\n`);
      if (typeof args.delayMs === "number" && args.delayMs > 0) await wait(args.delayMs);
      return text({ pid: process.pid });
    }
    case "increment": {
      const delayMs = typeof args.delayMs === "number" ? args.delayMs : 0;
      appendFileSync(writeStartsFile, `${String(args.id)} ${process.pid}\n`);
      if (delayMs > 0) await wait(delayMs);
      appendFileSync(writesFile, `${String(args.id)}\n`);
      count += 1;
      const answer = text({ count });
      if (delayMs > 0) await wait(delayMs);
      return answer;
    }
    default:
      throw new McpError(ErrorCode.InvalidParams, `unknown tool ${name}`);
  }
}

function newServer() {
  const server = new Server({ name: "counter-server", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(request.params));
  return server;
}

if (!argv.includes("--http")) {
  await newServer().connect(new StdioServerTransport());
} else {
  /** Session id -> its transport; forgetting a session is deleting it here. */
  const sessions = new Map();
  const sessionGone = (res) => {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
  };
  const readBody = async (req) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
  };
  const http = createServer((req, res) => {
    void (async () => {
      if (req.url === "/forget-sessions" && req.method === "POST") {
        const transports = [...sessions.values()];
        sessions.clear();
        await Promise.all(transports.map((transport) => transport.close().catch(() => undefined)));
        res.writeHead(204).end();
        return;
      }
      if (req.url !== "/mcp") {
        res.writeHead(404).end();
        return;
      }
      const body = req.method === "POST" ? await readBody(req) : undefined;
      const sessionId = req.headers["mcp-session-id"];
      if (typeof sessionId === "string") {
        const transport = sessions.get(sessionId);
        if (transport === undefined) return sessionGone(res);
        await transport.handleRequest(req, res, body);
        return;
      }
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      await newServer().connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((error) => {
      process.stderr.write(`counter-server: ${String(error)}\n`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  http.listen(0, "127.0.0.1", () => {
    process.stdout.write(`listening port=${http.address().port}\n`);
  });
  // The test's end of stdin closing means the test is gone: do not outlive it.
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
}
