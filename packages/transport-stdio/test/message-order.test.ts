import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { observe, within } from "./helpers.js";

/**
 * A message that only the SDK's schema can check (an error response) loads that schema on first
 * use; what the server wrote after it must still reach the host after it, and the close last.
 * Its own file: the schema loads once per module graph, and this must be the first message to need it.
 */
describe("messages whose check waits for the SDK's schema", () => {
  it("are delivered in the order the server wrote them, the close after all of them", async () => {
    const lines = [
      { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } },
      { jsonrpc: "2.0", id: 2, result: { content: [] } },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
      { jsonrpc: "2.0", id: 3, result: { _meta: { progressToken: 1 }, content: [] } },
      { jsonrpc: "2.0", id: 4, result: {} },
    ];
    const script = `process.stdout.write(${JSON.stringify(lines.map((line) => JSON.stringify(line)).join("\n") + "\n")});`;
    const observed = observe({ command: process.execPath, args: ["-e", script] });
    const heard: (JSONRPCMessage | "closed")[] = [];
    observed.transport.onmessage = (message) => heard.push(message);
    const { onclose } = observed.transport;
    observed.transport.onclose = () => {
      heard.push("closed");
      onclose?.();
    };
    await observed.transport.start();
    await within(observed.closed, 20_000, "the server's exit");
    await observed.transport.close();
    expect(heard).toEqual([...lines, "closed"]);
    // The server exiting by itself is reported as such; nothing else is.
    expect(observed.errors.map((error) => (error as { code?: unknown }).code)).toEqual(["SERVER_EXITED"]);
  });
});
