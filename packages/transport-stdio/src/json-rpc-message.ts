import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createJsonRpcMessageCheck, type JsonRpcCheck as CheckOf } from "@mcp-tool-adapter/core";

export type JsonRpcCheck = CheckOf<JSONRPCMessage>;

/**
 * Checks a parsed stdout line as SDK 1.x's JSON-RPC message schema would (core's quick check,
 * the schema from SDK 1.x's `types.js` loaded only for a message the quick check cannot pass).
 */
export const checkJsonRpcMessage = createJsonRpcMessageCheck<JSONRPCMessage>(() =>
  import("@modelcontextprotocol/sdk/types.js").then((types) => types.JSONRPCMessageSchema),
);
