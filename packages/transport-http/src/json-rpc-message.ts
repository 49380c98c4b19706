import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createJsonRpcMessageCheck } from "@mcp-tool-adapter/core";

/**
 * Checks a parsed message from the server as SDK 1.x's JSON-RPC message schema would (core's
 * quick check; the schema from SDK 1.x's `types.js` loaded only for a message it cannot pass).
 */
export const checkJsonRpcMessage = createJsonRpcMessageCheck<JSONRPCMessage>(() =>
  import("@modelcontextprotocol/sdk/types.js").then((types) => types.JSONRPCMessageSchema),
);
