import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

/**
 * Why the LangChain sampling handler could not answer: the server's request breaks the spec's
 * tool-use rules (`SAMPLING_REQUEST_INVALID`: a `tool_result` with no `tool_use` before it, a
 * `tool_use` left without its result, a block a role cannot hold), the request has tools and the
 * chat model cannot bind any (`SAMPLING_TOOLS_UNSUPPORTED`), or the model's answer has nothing MCP
 * can carry (`SAMPLING_ANSWER_EMPTY`). The server receives the message as a JSON-RPC error.
 */
export type LangChainSamplingErrorCode =
  "SAMPLING_REQUEST_INVALID" | "SAMPLING_TOOLS_UNSUPPORTED" | "SAMPLING_ANSWER_EMPTY";

export class LangChainSamplingError extends MCPToolAdapterError<LangChainSamplingErrorCode> {
  static override readonly errorName: string = "LangChainSamplingError";
}
