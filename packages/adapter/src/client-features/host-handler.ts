import { MCPProtocolError, type MCPRelatedCall } from "@mcp-tool-adapter/core";
import { describeCause } from "../errors.js";
import { isSdkMcpError, RpcCode } from "../rpc-error.js";
import type { Logger } from "../types.js";
import type { ClientRequestContext } from "./types.js";

export interface HostHandlerCall<T> {
  /** How messages name the request, e.g. "elicitation/create". */
  readonly what: string;
  readonly serverName: string;
  readonly timeoutMs: number;
  /** Fires when the server cancels its request (or the connection closes). */
  readonly serverSignal: AbortSignal;
  /** The tool call the request belongs to, when the transport linked them. */
  readonly relatedCall: MCPRelatedCall | undefined;
  readonly logger: Logger | undefined;
  run(context: ClientRequestContext): T | Promise<T>;
}

/**
 * Runs a host handler for a server's request with a deadline. Whatever the handler does (throws,
 * rejects, hangs) becomes a JSON-RPC error for the server, in the engine seam's terms (core's
 * MCPProtocolError, which each engine turns into its SDK's error); nothing reaches the host as a
 * crash. A host that throws a JSON-RPC error itself (core's, or SDK 1.x's McpError) keeps its code.
 */
export async function callHostHandler<T>(call: HostHandlerCall<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onServerAbort = (): void => {
    controller.abort(call.serverSignal.reason);
  };
  call.serverSignal.addEventListener("abort", onServerAbort, { once: true });
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new MCPProtocolError(
        RpcCode.RequestTimeout,
        `The client's ${call.what} handler did not answer within ${call.timeoutMs} ms`,
      );
      controller.abort(error);
      reject(error);
    }, call.timeoutMs);
  });
  try {
    const { serverName, relatedCall } = call;
    const context: ClientRequestContext =
      relatedCall === undefined
        ? { serverName, signal: controller.signal }
        : { serverName, signal: controller.signal, relatedCall };
    const answer = Promise.resolve().then(() => call.run(context));
    return await Promise.race([answer, timedOut]);
  } catch (error) {
    if (isSdkMcpError(error) || MCPProtocolError.isInstance(error)) {
      call.logger?.warn?.(`Answering ${call.what} from MCP server "${call.serverName}" failed: ${error.message}`);
      throw error;
    }
    call.logger?.warn?.(
      `The ${call.what} handler for MCP server "${call.serverName}" threw; the server gets an error: ${describeCause(error)}`,
      { error },
    );
    throw new MCPProtocolError(
      RpcCode.InternalError,
      `The client's ${call.what} handler failed: ${describeCause(error)}`,
    );
  } finally {
    clearTimeout(timer);
    call.serverSignal.removeEventListener("abort", onServerAbort);
  }
}
