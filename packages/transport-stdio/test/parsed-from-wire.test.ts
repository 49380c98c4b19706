import { isParsedFromWire } from "@mcp-tool-adapter/core/value-rules";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { observe, within } from "./helpers.js";

// Tool discovery freezes a result in place, instead of copying it, only when the transport marked it.
describe("results parsed from the server's output", () => {
  it("are marked as parsed from the wire; what has no result object is not", async () => {
    const lines = [
      { jsonrpc: "2.0", id: 1, result: { tools: [{ name: "t", inputSchema: { type: "object" } }] } },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: {} },
    ];
    const script = `process.stdout.write(${JSON.stringify(lines.map((line) => JSON.stringify(line)).join("\n") + "\n")});`;
    const observed = observe({ command: process.execPath, args: ["-e", script] });
    const heard: JSONRPCMessage[] = [];
    observed.transport.onmessage = (message) => heard.push(message);
    await observed.transport.start();
    await within(observed.closed, 20_000, "the server's exit");
    await observed.transport.close();
    expect(heard).toEqual(lines);
    const [response, notification] = heard as unknown as [{ result: unknown }, { params: unknown }];
    expect(isParsedFromWire(response.result)).toBe(true);
    expect(isParsedFromWire(notification.params)).toBe(false);
    expect(isParsedFromWire(lines[0]!.result)).toBe(false);
  });
});
