import { MCPProtocolError, RPC_CONNECTION_CLOSED, RPC_REQUEST_TIMEOUT } from "@mcp-tool-adapter/core";

/**
 * The JSON-RPC error codes the adapter sends and reads, named as SDK 1.x's `ErrorCode` names them
 * and written out: importing them from the SDK loads its `types.js`, whose Zod schemas alone are
 * some 5 MB of live heap the default engine never uses. A test holds the values equal to the SDK's.
 */
export const RpcCode = Object.freeze({
  ConnectionClosed: RPC_CONNECTION_CLOSED,
  RequestTimeout: RPC_REQUEST_TIMEOUT,
  ParseError: -32_700,
  InvalidRequest: -32_600,
  MethodNotFound: -32_601,
  InvalidParams: -32_602,
  InternalError: -32_603,
});

/**
 * SDK 1.x's `McpError` (thrown by the `sdk-v1` engine's Client, or by a host's handler), recognised
 * by its shape (its name and an integer code) so that recognising it does not load the SDK.
 */
export function isSdkMcpError(error: unknown): error is Error & { readonly code: number; readonly data?: unknown } {
  return (
    error instanceof Error && error.name === "McpError" && Number.isSafeInteger((error as { code?: unknown }).code)
  );
}

/** The JSON-RPC code of an error: core's MCPProtocolError's (either engine), or an SDK 1.x McpError's. */
export function rpcCodeOf(error: unknown): number | undefined {
  if (MCPProtocolError.isInstance(error)) return error.rpcCode;
  return isSdkMcpError(error) ? error.code : undefined;
}
