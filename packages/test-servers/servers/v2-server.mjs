#!/usr/bin/env node
/**
 * v2-server.mjs: an MCP server on the official SDK's v2 server package (@modelcontextprotocol/server),
 * which speaks protocol revision 2026-07-28 and, unless told not to, the 2025 era too. Plain ESM
 * run directly by node; `createV2Server` is also imported in-process (src/v2-servers.ts serves it
 * over streamable HTTP).
 *
 * Run: node v2-server.mjs [--modern-only] [--tools-list-ttl-ms=N]   (serves stdio)
 *   --modern-only          refuse the 2025 handshake (serveStdio's legacy: "reject")
 *   --tools-list-ttl-ms=N  the ttlMs hint of tools/list results (public scope); default none (0)
 *
 * Tools:
 *   echo {text}            answers "echo: <text>"
 *   slow {ms, steps?}      sends `steps` progress notifications (default 2) over `ms` ms, then answers "done"
 *   fail {}                answers an isError result "it failed on purpose"
 */
import { McpServer, fromJsonSchema } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { fileURLToPath } from "node:url";

const object = (properties, required = []) => fromJsonSchema({ type: "object", properties, required });
const text = (value) => ({ content: [{ type: "text", text: value }] });

/** A fresh server instance (the v2 entries build one per request or connection). */
export function createV2Server(options = {}) {
  const ttlMs = options.toolsListTtlMs;
  const server = new McpServer(
    { name: "v2-test-server", version: "1.0.0" },
    {
      instructions: "A small server for the engine-2026 tests.",
      ...(ttlMs === undefined ? {} : { cacheHints: { "tools/list": { ttlMs, cacheScope: "public" } } }),
    },
  );
  server.registerTool(
    "echo",
    {
      description: "Echoes text",
      inputSchema: object({ text: { type: "string" } }, ["text"]),
      annotations: { readOnlyHint: true },
    },
    async ({ text: value }) => text(`echo: ${value}`),
  );
  server.registerTool(
    "slow",
    {
      description: "Answers after ms milliseconds, reporting progress",
      inputSchema: object({ ms: { type: "number" }, steps: { type: "number" } }, ["ms"]),
    },
    async ({ ms, steps = 2 }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let step = 1; step <= steps; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, ms / steps));
        if (ctx.mcpReq.signal.aborted) return text("cancelled");
        if (token !== undefined) {
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken: token, progress: step, total: steps },
          });
        }
      }
      return text("done");
    },
  );
  server.registerTool("fail", { description: "Always fails", inputSchema: object({}) }, async () => ({
    ...text("it failed on purpose"),
    isError: true,
  }));
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flag = (name) => process.argv.find((arg) => arg.startsWith(`--${name}`));
  const ttl = flag("tools-list-ttl-ms=");
  const options = ttl === undefined ? {} : { toolsListTtlMs: Number(ttl.split("=")[1]) };
  serveStdio(() => createV2Server(options), { legacy: flag("modern-only") === undefined ? "serve" : "reject" });
}
