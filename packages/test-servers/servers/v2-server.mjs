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
 *   route {region}         answers "route: <region>"; `region` is an `x-mcp-header` parameter ("Region"), so on
 *                          2026-07-28 over HTTP the server refuses a call without a matching Mcp-Param-Region header
 *   ask {}                 elicits {name} from the client (an input_required result on 2026-07-28, an
 *                          elicitation/create request on 2025), answers "hello <name>" or "no answer (<action>)"
 *   sample {}             asks the client's model to "Say hi" (sampling/createMessage: embedded in an
 *                          input_required result on 2026-07-28, a request on 2025), answers "model said: <text>"
 *   roots {}               asks the client for its roots (roots/list, likewise), answers "roots: <uri>, <uri>"
 *   <extra> {}             each name in options.extraTools (read per instance): answers "<name>: ok"
 */
import { McpServer, acceptedContent, fromJsonSchema, inputRequired, inputResponse } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { fileURLToPath } from "node:url";

const object = (properties, required = []) => fromJsonSchema({ type: "object", properties, required });
const text = (value) => ({ content: [{ type: "text", text: value }] });

const SAY_HI = { messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 20 };
/** The text of a sampling result (a single content block, or the first of several). */
const sampledText = (result) => (Array.isArray(result.content) ? result.content[0] : result.content)?.text;
const rootList = (roots) => `roots: ${roots.map((root) => root.uri).join(", ")}`;

const NAME_FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

/** A fresh server instance (the v2 entries build one per request or connection); `era` is the factory context's. */
export function createV2Server(options = {}, era = "modern") {
  const ttlMs = options.toolsListTtlMs;
  const server = new McpServer(
    { name: "v2-test-server", version: "1.0.0" },
    {
      instructions: "A small server for the engine-2026 tests.",
      ...(ttlMs === undefined
        ? {}
        : { cacheHints: { "tools/list": { ttlMs, cacheScope: options.toolsListCacheScope ?? "public" } } }),
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
  server.registerTool(
    "route",
    {
      description: "Answers with the region, which a 2026-07-28 client mirrors into a header",
      inputSchema: object({ region: { type: "string", "x-mcp-header": "Region" } }, ["region"]),
    },
    async ({ region }) => text(`route: ${region}`),
  );
  server.registerTool("fail", { description: "Always fails", inputSchema: object({}) }, async () => ({
    ...text("it failed on purpose"),
    isError: true,
  }));
  server.registerTool(
    "ask",
    { description: "Asks the user for a name", inputSchema: object({}) },
    async (_args, ctx) => {
      if (era === "legacy") {
        const answer = await ctx.mcpReq.elicitInput({
          mode: "form",
          message: "Who are you?",
          requestedSchema: NAME_FORM,
        });
        return text(answer.action === "accept" ? `hello ${answer.content?.name}` : `no answer (${answer.action})`);
      }
      const accepted = acceptedContent(ctx.mcpReq.inputResponses, "who");
      if (accepted !== undefined) return text(`hello ${accepted.name}`);
      const answered = inputResponse(ctx.mcpReq.inputResponses, "who");
      if (answered.kind === "elicit") return text(`no answer (${answered.action})`);
      return inputRequired({
        inputRequests: { who: inputRequired.elicit({ message: "Who are you?", requestedSchema: NAME_FORM }) },
      });
    },
  );
  server.registerTool(
    "sample",
    { description: "Asks the client's model to say hi", inputSchema: object({}) },
    async (_args, ctx) => {
      if (era === "legacy") return text(`model said: ${sampledText(await ctx.mcpReq.requestSampling(SAY_HI))}`);
      const answered = inputResponse(ctx.mcpReq.inputResponses, "llm");
      if (answered.kind === "sampling") return text(`model said: ${sampledText(answered.result)}`);
      return inputRequired({ inputRequests: { llm: inputRequired.createMessage(SAY_HI) } });
    },
  );
  server.registerTool(
    "roots",
    { description: "Lists the client's roots", inputSchema: object({}) },
    async (_args, ctx) => {
      if (era === "legacy") return text(rootList((await server.server.listRoots()).roots));
      const answered = inputResponse(ctx.mcpReq.inputResponses, "where");
      if (answered.kind === "roots") return text(rootList(answered.roots));
      return inputRequired({ inputRequests: { where: inputRequired.listRoots() } });
    },
  );
  for (const name of options.extraTools ?? []) {
    server.registerTool(name, { description: `Added at runtime: ${name}`, inputSchema: object({}) }, async () =>
      text(`${name}: ok`),
    );
  }
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flag = (name) => process.argv.find((arg) => arg.startsWith(`--${name}`));
  const ttl = flag("tools-list-ttl-ms=");
  const options = ttl === undefined ? {} : { toolsListTtlMs: Number(ttl.split("=")[1]) };
  serveStdio((context) => createV2Server(options, context.era), {
    legacy: flag("modern-only") === undefined ? "serve" : "reject",
  });
}
