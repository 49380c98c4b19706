import { describe, expect, it } from "vitest";
import { MCPProtocolError, MCPToolAdapterError, RPC_CONNECTION_CLOSED, RPC_REQUEST_TIMEOUT } from "../src/index.js";

describe("MCPProtocolError", () => {
  it("carries the JSON-RPC code and data beside the stable PROTOCOL_ERROR code", () => {
    const cause = new Error("from the SDK");
    const error = new MCPProtocolError(-32602, "Tool nope not found", { cause, data: { tool: "nope" } });
    expect(error).toMatchObject({
      name: "MCPProtocolError",
      code: "PROTOCOL_ERROR",
      rpcCode: -32602,
      data: { tool: "nope" },
    });
    expect(error.cause).toBe(cause);
    expect(MCPProtocolError.isInstance(error)).toBe(true);
    expect(MCPToolAdapterError.isInstance(error)).toBe(true);
  });

  it("uses SDK 1.x's codes for a timeout and a closed connection", () => {
    expect([RPC_REQUEST_TIMEOUT, RPC_CONNECTION_CLOSED]).toEqual([-32001, -32000]);
  });
});
