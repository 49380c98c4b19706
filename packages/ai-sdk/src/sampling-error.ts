import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

/**
 * Why the AI SDK sampling handler could not answer: the server's request breaks the spec's
 * tool-use rules (`SAMPLING_REQUEST_INVALID`: a `tool_result` with no `tool_use` before it, a
 * `tool_use` left without its result, a block a role cannot hold), or the model's answer has
 * nothing MCP can carry (`SAMPLING_ANSWER_EMPTY`). The server receives the message as a JSON-RPC error.
 */
export type AISDKSamplingErrorCode = "SAMPLING_REQUEST_INVALID" | "SAMPLING_ANSWER_EMPTY";

export class AISDKSamplingError extends MCPToolAdapterError<AISDKSamplingErrorCode> {
  static override readonly errorName: string = "AISDKSamplingError";
}
