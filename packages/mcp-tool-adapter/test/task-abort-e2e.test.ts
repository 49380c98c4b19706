import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { everythingStdioServer, expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { createDefaultTransport, MCPToolAdapter } from "../src/index.js";

// Issue 37: a call of server-everything's task tool (simulate-research-query) aborted before the
// server's CreateTaskResult arrived still ends the task: the adapter keeps listening for the
// answer and sends tasks/cancel for the task it names. Seen on the wire, over a real stdio pipe.

let adapter: MCPToolAdapter | undefined;
afterEach(async () => {
  await adapter?.disconnect();
  adapter = undefined;
  await expectNoLeakedProcesses();
});

/** The default stdio transport, with every message both ways noted, and a hook on what is sent. */
async function observedTransport(
  config: Parameters<typeof createDefaultTransport>[0],
  onSend: (message: JSONRPCMessage) => void,
): Promise<{ transport: Transport; received: JSONRPCMessage[]; sent: JSONRPCMessage[] }> {
  const transport = await createDefaultTransport(config);
  const received: JSONRPCMessage[] = [];
  const sent: JSONRPCMessage[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    onSend(message);
    return send(message, options);
  };
  let handler: Transport["onmessage"];
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => handler,
    set: (next: Transport["onmessage"]) => {
      handler =
        next === undefined
          ? undefined
          : (message, extra) => {
              received.push(message);
              next(message, extra);
            };
    },
  });
  return { transport, received, sent };
}

describe("server-everything's task tool, aborted before its task id arrived", () => {
  it("ends the call at once with the abort, then cancels the task on the server", async () => {
    const controller = new AbortController();
    const config = { name: "everything", transport: "stdio" as const, ...everythingStdioServer() };
    const observed = await observedTransport(config, (message) => {
      // The abort comes while the creating request is being handed to the pipe: before any answer.
      if ("method" in message && message.method === "tools/call") controller.abort(new Error("user gave up"));
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      adapter = new MCPToolAdapter(config, { connectTimeoutMs: 20_000, transport: () => observed.transport });
      await adapter.connect();
      await adapter.discoverTools();

      const result = await adapter.invoke(
        "simulate-research-query",
        { topic: "python" },
        { signal: controller.signal, timeoutMs: 30_000 },
      );
      expect(result).toMatchObject({ success: false, errorKind: "cancelled" });

      const call = observed.sent.find((message) => "method" in message && message.method === "tools/call");
      const callId = call !== undefined && "id" in call ? call.id : undefined;
      const created = (): string | undefined => {
        const answer = observed.received.find((message) => "id" in message && message.id === callId);
        return (answer as { result?: { task?: { taskId?: string } } } | undefined)?.result?.task?.taskId;
      };
      await expect.poll(created, { timeout: 20_000 }).toBeTypeOf("string");
      const taskId = created();
      const cancel = observed.sent.find(
        (message) =>
          "method" in message &&
          message.method === "tasks/cancel" &&
          (message.params as { taskId?: unknown } | undefined)?.taskId === taskId,
      );
      expect(cancel).toBeDefined();
      const cancelId = cancel !== undefined && "id" in cancel ? cancel.id : undefined;
      // The server's own answer to tasks/cancel: the task, now cancelled.
      await expect
        .poll(
          () =>
            (
              observed.received.find((message) => "id" in message && message.id === cancelId) as
                { result?: { status?: string } } | undefined
            )?.result?.status,
          { timeout: 20_000 },
        )
        .toBe("cancelled");
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  }, 60_000);
});
