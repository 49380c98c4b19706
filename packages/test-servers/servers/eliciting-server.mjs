#!/usr/bin/env node
/**
 * eliciting-server.mjs: an MCP stdio server with one tool, `ask`, that asks its client for a
 * name (required string) and an age (optional integer >= 0) by elicitation and returns the
 * client's answer verbatim as JSON text. Small enough to answer by hand in a terminal.
 * Plain ESM run directly by node (no build); its only dependency is the MCP SDK.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "eliciting", version: "1.0.0" });
server.registerTool("ask", { description: "Asks for a name and an age, returns the answer" }, async () => {
  const answer = await server.server.elicitInput({
    message: "Who are you?",
    requestedSchema: {
      type: "object",
      properties: {
        name: { type: "string", title: "Name", minLength: 1 },
        age: { type: "integer", title: "Age", minimum: 0 },
      },
      required: ["name"],
    },
  });
  return { content: [{ type: "text", text: JSON.stringify(answer) }] };
});
await server.connect(new StdioServerTransport());
