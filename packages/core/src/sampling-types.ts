/**
 * The sampling contract: what a server's `sampling/createMessage` asks of the host's model, and
 * what the host answers, in plain JSON terms (MCP 2025-11-25, with tool use: SEP-1577). Stated
 * once here, below every package, so the adapter (which calls the handler) and the bridges (which
 * ship ready handlers on a model framework) share it without depending on each other.
 */

/** What a host handler gets besides the request: which server asks, and a signal that fires on timeout or when the server cancels. */
export interface MCPClientRequestContext {
  readonly serverName: string;
  readonly signal: AbortSignal;
  /**
   * The tool call the server asks during, when the wire says so: over streamable HTTP a server
   * sends the requests that belong to a call on that call's response stream. Undefined when
   * nothing links the request to a call (stdio, legacy SSE, the standalone GET stream, an engine
   * that does not follow the link): then only the timing says which call it might be about.
   */
  readonly relatedCall?: MCPRelatedCall;
}

/** The tool call a server's elicitation or sampling request belongs to (MCPClientRequestContext.relatedCall). */
export interface MCPRelatedCall {
  /** The tool's MCP name, as the server lists it. */
  readonly tool: string;
  /** What the call's invoke options gave as `caller` (undefined when they gave none): the invoker's own mark of who made the call. */
  readonly caller: unknown;
}

/** Optional annotations of a content block (who it is for, how much it matters). */
export interface MCPContentAnnotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
}

export interface MCPSamplingTextContent {
  type: "text";
  text: string;
  annotations?: MCPContentAnnotations;
  _meta?: Record<string, unknown>;
}

export interface MCPSamplingImageContent {
  type: "image";
  /** Base64-encoded image data. */
  data: string;
  mimeType: string;
  annotations?: MCPContentAnnotations;
  _meta?: Record<string, unknown>;
}

export interface MCPSamplingAudioContent {
  type: "audio";
  /** Base64-encoded audio data. */
  data: string;
  mimeType: string;
  annotations?: MCPContentAnnotations;
  _meta?: Record<string, unknown>;
}

/** The model asks to call one of the request's `tools` (in an assistant message or the answer). */
export interface MCPToolUseContent {
  type: "tool_use";
  /** Unique in the conversation: the `toolUseId` of the matching result. */
  id: string;
  name: string;
  input: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/**
 * What a tool the model asked for returned (in a user message): the server ran it and sends the
 * conversation back for the next turn. `content` holds the tool's content blocks (text, image,
 * audio, resource links, embedded resources), as in a CallToolResult.
 */
export interface MCPToolResultContent {
  type: "tool_result";
  toolUseId: string;
  content: ({ type: string } & Record<string, unknown>)[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** One block of a sampling message or answer. */
export type MCPSamplingContent =
  MCPSamplingTextContent | MCPSamplingImageContent | MCPSamplingAudioContent | MCPToolUseContent | MCPToolResultContent;

/**
 * One turn of the conversation to sample from. A user message that carries `tool_result` blocks
 * carries nothing else; every `tool_use` of the assistant turn before it gets its result.
 */
export interface MCPSamplingMessage {
  role: "user" | "assistant";
  content: MCPSamplingContent | MCPSamplingContent[];
  _meta?: Record<string, unknown>;
}

/** A tool the server lets the model call while sampling (a tool definition, as tools/list gives one). */
export interface MCPSamplingTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: "object"; properties?: Record<string, object>; required?: string[]; [key: string]: unknown };
  outputSchema?: { type: "object"; properties?: Record<string, object>; required?: string[]; [key: string]: unknown };
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** How the model may use the tools: `auto` (its choice, the default), `required` (at least one), `none`. */
export interface MCPSamplingToolChoice {
  mode?: "auto" | "required" | "none";
}

/** A server's `sampling/createMessage` parameters, as sent. */
export interface MCPSamplingRequest {
  messages: MCPSamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: {
    hints?: { name?: string }[];
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  /** Soft-deprecated: which servers' context to include (honoured only with the `sampling.context` capability). */
  includeContext?: "none" | "thisServer" | "allServers";
  metadata?: object;
  /** Present only when the client declared `sampling.tools` (the adapter's `samplingTools: true`). */
  tools?: MCPSamplingTool[];
  toolChoice?: MCPSamplingToolChoice;
  /** Set when the server asks for the request to run as a task (the client's `tasks` capability). */
  task?: { ttl?: number };
  _meta?: Record<string, unknown>;
}

/**
 * Why the model stopped: `endTurn`, `stopSequence`, `maxTokens`, or `toolUse` (the answer asks
 * for tool calls: its content holds `tool_use` blocks), or a provider's own reason.
 */
export type MCPSamplingStopReason = "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | (string & {});

/** The host model's answer. With `stopReason: "toolUse"` the content is (or includes) `tool_use` blocks. */
export interface MCPSamplingResponse {
  role: "assistant";
  content: MCPSamplingContent | MCPSamplingContent[];
  /** The model that answered. */
  model: string;
  stopReason?: MCPSamplingStopReason;
  _meta?: Record<string, unknown>;
}

/** Answers `sampling/createMessage` with the host's model. */
export type MCPSamplingHandler = (
  request: MCPSamplingRequest,
  context: MCPClientRequestContext,
) => MCPSamplingResponse | Promise<MCPSamplingResponse>;
