#!/usr/bin/env node
/**
 * eliciting-server.mjs: an MCP stdio server with one tool, `ask`, that asks its client for a
 * name (required string) and an age (optional integer >= 0) by elicitation and returns the
 * client's answer verbatim as JSON text (and `ask-then-wait`, below). Small enough to answer by hand in a terminal.
 * Plain ESM run directly by node (no build); its only dependency is the MCP SDK.
 */
import { appendFileSync } from "node:fs";
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
// `ask-then-wait` asks the same question, then works for up to a minute before it answers: a call
// that is still running upstream after its client answered, to cancel. When ELICITING_EVENTS names
// a file, the tool appends what became of each call ("answered <name>", then "cancelled" or
// "finished"), so a test can see a cancellation arrive.
const events = process.env.ELICITING_EVENTS;
const record = (line) => (events === undefined ? undefined : appendFileSync(events, `${line}\n`));
server.registerTool(
  "ask-then-wait",
  { description: "Asks for a name, then works for up to a minute (cancellable) before it answers" },
  async (extra) => {
    const answer = await server.server.elicitInput({
      message: "Who are you?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    record(`answered ${String(answer.content?.name)}`);
    const outcome = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve("finished"), 60_000);
      extra.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve("cancelled");
      });
    });
    record(outcome);
    return { content: [{ type: "text", text: `${outcome} for ${String(answer.content?.name)}` }] };
  },
);
await server.connect(new StdioServerTransport());
