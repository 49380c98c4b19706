import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

/**
 * Why the OpenAI Agents sampling handler could not answer: the server's request breaks the spec's
 * tool-use rules (`SAMPLING_REQUEST_INVALID`: a `tool_result` with no `tool_use` before it, a
 * `tool_use` left without its result, a block a role cannot hold), or the model's answer has
 * nothing MCP can carry or a tool call whose arguments are not a JSON object
 * (`SAMPLING_ANSWER_INVALID`). The server receives the message as a JSON-RPC error.
 */
export type OpenAIAgentsSamplingErrorCode = "SAMPLING_REQUEST_INVALID" | "SAMPLING_ANSWER_INVALID";

export class OpenAIAgentsSamplingError extends MCPToolAdapterError<OpenAIAgentsSamplingErrorCode> {
  static override readonly errorName: string = "OpenAIAgentsSamplingError";
}
