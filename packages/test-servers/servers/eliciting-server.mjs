#!/usr/bin/env node
/**
 * eliciting-server.mjs: an MCP stdio server with one tool, `ask`, that asks its client for a
 * name (required string) and an age (optional integer >= 0) by elicitation and returns the
 * client's answer verbatim as JSON text (and `ask-then-wait`, below). Small enough to answer by hand in a terminal.
 * Plain ESM run directly by node (no build); its only dependency is the MCP SDK.
 */
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

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
// `look-up` (annotated read-only) and `ask-then-write` (annotated as a write that is not
// idempotent) each ask for a name, like `ask`: a tool safe to repeat and one that is not, for the
// gateway's rerun of a call whose holder copy died. Each appends "<tool> ran <pid>" to the events
// file when it starts and "<tool> answered <name> <pid>" when it got its answer, so a test counts
// every run, and which server process ran it.
for (const [name, annotations] of [
  ["look-up", { readOnlyHint: true }],
  ["ask-then-write", { readOnlyHint: false, destructiveHint: false, idempotentHint: false }],
]) {
  server.registerTool(
    name,
    {
      description: `Asks for a name, then answers with it (${annotations.readOnlyHint ? "read-only" : "a write"})`,
      inputSchema: { topic: z.string().optional() },
      annotations,
    },
    async ({ topic }) => {
      record(`${name} ran ${process.pid}`);
      const answer = await server.server.elicitInput({
        message: `Who is asking${topic === undefined ? "" : ` about ${topic}`}?`,
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      });
      record(`${name} answered ${String(answer.content?.name)} ${process.pid}`);
      return {
        content: [{ type: "text", text: `${name} for ${String(answer.content?.name)} about ${String(topic)}` }],
      };
    },
  );
}
// `look-up-slowly` (read-only) and `write-slowly` (a write) ask for a name like `look-up`, then send
// one progress notification (when the call has a progress token) and hold their result while the
// file named by `holdWhile` exists (a minute at most; cancellable): a call whose answer a test can
// cut off after its progress went out, by killing the process answering it. They record "<tool> ran
// <pid>", "<tool> holds <pid>" (progress sent, now waiting) and "<tool> answered <name> <pid>", or
// "<tool> cancelled <pid>" when the call was cancelled while it held. With `askOnce` (a file), a
// run asks only while that file does not exist and creates it: a rerun of the same call (same
// arguments) skips the question and goes straight to its progress and hold, so a test can cut off,
// cancel or time out the rerun itself.
for (const [name, annotations] of [
  ["look-up-slowly", { readOnlyHint: true }],
  ["write-slowly", { readOnlyHint: false, destructiveHint: false, idempotentHint: false }],
]) {
  server.registerTool(
    name,
    {
      description: `Asks for a name, sends progress, then holds its answer while a file exists (${annotations.readOnlyHint ? "read-only" : "a write"})`,
      inputSchema: { holdWhile: z.string(), askOnce: z.string().optional() },
      annotations,
    },
    async ({ holdWhile, askOnce }, extra) => {
      record(`${name} ran ${process.pid}`);
      const asked = askOnce !== undefined && existsSync(askOnce);
      if (askOnce !== undefined && !asked) writeFileSync(askOnce, "");
      const answer = asked
        ? { content: { name: "(asked before)" } }
        : await server.server.elicitInput({
            message: "Who is asking?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          });
      const token = extra._meta?.progressToken;
      if (token !== undefined) {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: 1, total: 2, message: "working" },
        });
      }
      record(`${name} holds ${process.pid}`);
      const until = Date.now() + 60_000;
      while (existsSync(holdWhile) && Date.now() < until && !extra.signal.aborted) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      if (extra.signal.aborted) {
        record(`${name} cancelled ${process.pid}`);
        return { content: [{ type: "text", text: "cancelled" }], isError: true };
      }
      record(`${name} answered ${String(answer.content?.name)} ${process.pid}`);
      return { content: [{ type: "text", text: `${name} for ${String(answer.content?.name)} by ${process.pid}` }] };
    },
  );
}
await server.connect(new StdioServerTransport());
