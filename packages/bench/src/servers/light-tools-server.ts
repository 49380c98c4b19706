/**
 * A light MCP server over stdio for the many-servers scenario: the generated tools (`--tools=N`,
 * one page) answered as newline-delimited JSON-RPC by hand, with no SDK to load, so twenty of them
 * start on a small loaded machine in about the time of twenty bare Node processes and the figures
 * are the client's. With `--grandchild` it starts a helper process (`sleep`) and leaves it running,
 * as servers that start a database or a language server do: stopping the server then means
 * stopping its process family. Bundled to plain JavaScript by build-peer-worker.ts.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { generatedTools } from "./generated-tools.js";

// A safety net only: a bench that died without closing our stdin must not leave us running.
const MAX_LIFETIME_MS = 10 * 60_000;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

function toolCount(): number {
  const raw = process.argv.find((arg) => arg.startsWith("--tools="))?.slice("--tools=".length) ?? "10";
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`light-tools-server: --tools must be a positive integer, got "${raw}"`);
  return count;
}

const tools = generatedTools(toolCount());
const toolNames = new Set(tools.map((tool) => tool.name));

interface Request {
  readonly id?: string | number;
  readonly method?: unknown;
  readonly params?: { readonly protocolVersion?: string; readonly name?: string; readonly arguments?: unknown };
}

type Answer = { result: unknown } | { error: { code: number; message: string } };

function answer(request: Request): Answer {
  switch (request.method) {
    case "initialize":
      return {
        result: {
          protocolVersion: request.params?.protocolVersion ?? "2025-06-18",
          capabilities: { tools: {} },
          serverInfo: { name: "bench-light-tools", version: "1.0.0" },
        },
      };
    case "ping":
      return { result: {} };
    case "tools/list":
      return { result: { tools } };
    case "tools/call": {
      const name = request.params?.name;
      if (name === undefined || !toolNames.has(name))
        return { error: { code: INVALID_PARAMS, message: `Tool ${String(name)} not found` } };
      return { result: { content: [{ type: "text", text: JSON.stringify(request.params?.arguments ?? {}) }] } };
    }
    default:
      return { error: { code: METHOD_NOT_FOUND, message: `Method not found: ${String(request.method)}` } };
  }
}

if (process.argv.includes("--grandchild")) {
  // Never stopped by this server: whoever stops the server must stop its family.
  spawn("sleep", [String(MAX_LIFETIME_MS / 1000)], { stdio: "ignore" }).unref();
}
setTimeout(() => process.exit(0), MAX_LIFETIME_MS).unref();

createInterface({ input: process.stdin })
  .on("line", (line) => {
    let request: Request;
    try {
      request = JSON.parse(line) as Request;
    } catch {
      return;
    }
    // Notifications (no id) need no answer.
    if (request.id === undefined) return;
    process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: request.id, ...answer(request) })}\n`);
  })
  .on("close", () => process.exit(0));
