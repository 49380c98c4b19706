import type { CapabilityOverrides } from "@mcp-tool-adapter/capability-inference";
import type { Logger, MCPProgress } from "@mcp-tool-adapter/core";
import type { RegistryChange, ToolUi } from "@mcp-tool-adapter/registry";

export type { Logger, MCPProgress };

/**
 * Which tools to expose. Entries are exact names or glob patterns (`*` any run of characters,
 * `?` one character), e.g. `get_*`. An empty or absent `include` keeps every tool; `exclude` wins.
 */
export interface MCPToolFilter {
  include?: readonly string[];
  exclude?: readonly string[];
}

/** MCP tool annotations as the server sent them (all hints, none guaranteed). */
export interface MCPToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
  readonly [key: string]: unknown;
}

/** A tool as discovered from the server; frozen. */
export interface MCPToolDescriptor {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  readonly annotations?: MCPToolAnnotations;
  /** MCP Apps: the tool's HTML interface (`_meta.ui.resourceUri`) and who may see it (model, app or both). */
  readonly ui?: ToolUi;
}

/**
 * Why a call failed. With recovery on, two more: `unavailable` (the server is down, circuit open:
 * the call was not sent) and `outcome_unknown` (a call that writes was cut off by a failure: it may
 * or may not have run, and it was not sent again).
 */
export type MCPToolErrorKind =
  | "not_found"
  | "validation"
  | "timeout"
  | "cancelled"
  | "server_error"
  | "connection_lost"
  | "result_too_large"
  | "unavailable"
  | "outcome_unknown"
  /** An interceptor (an approval, a policy) or tool pinning refused the call; it was not sent. */
  | "refused"
  /** An interceptor threw, returned something unusable or ran past its timeout. */
  | "interceptor_failed"
  /** Only with InvokeOptions.inputRequired: the server asks for input first (see the result's `inputRequired`). */
  | "input_required";

/** What a tool call returned: always a `content` list, plus whatever else the server sent. */
export interface MCPToolResultData {
  content: unknown[];
  structuredContent?: unknown;
  [key: string]: unknown;
}

/** The outcome of `invoke`: failures are results, never throws (except "not connected"). */
export interface MCPToolResult {
  success: boolean;
  /** The server's answer; kept on `isError` results, null when nothing usable came back. */
  data: MCPToolResultData | null;
  error: string | null;
  /** Measured on the adapter's monotonic clock, for every call, failed ones included. */
  durationMs: number;
  /** Set on every failure. */
  errorKind?: MCPToolErrorKind;
  /** With InvokeOptions.inputRequired, when the server answered `input_required` (errorKind "input_required"). */
  inputRequired?: MCPInputRequired;
}

/** A 2026-07-28 server's `input_required` answer to a call, as it came: what it asks, and the state to echo. */
export interface MCPInputRequired {
  /** The embedded requests (elicitation/create, sampling/createMessage, roots/list), by key. */
  readonly inputRequests: Readonly<Record<string, unknown>>;
  readonly requestState?: string;
}

/** A retry of a call the server answered with `input_required`: the answers by key, and its state echoed. */
export interface MCPInputRetry {
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  readonly requestState?: string;
}

export interface ConnectOptions {
  /** Deadline for the whole connect (transport start and MCP handshake). Default: the adapter's connectTimeoutMs. */
  timeoutMs?: number;
}

export interface InvokeOptions {
  /** Deadline for this call; past it the result is a timeout and the server is told to cancel. */
  timeoutMs?: number;
  /** Aborting it cancels the call (result errorKind "cancelled") and tells the server to cancel. */
  signal?: AbortSignal;
  /** Receives the server's progress notifications for this call. */
  onProgress?: (progress: MCPProgress) => void;
  /** Restart the deadline whenever progress arrives (bounded by maxTotalTimeoutMs). */
  resetTimeoutOnProgress?: boolean;
  /** With resetTimeoutOnProgress: the call never runs longer than this in total. */
  maxTotalTimeoutMs?: number;
  /**
   * For a proxy passing the exchange on to its own client (the gateway): on a 2026-07-28
   * connection an `input_required` answer comes back as the result's `inputRequired` instead of
   * being answered by the handlers, and the given `inputResponses` / `requestState` go with the call
   * (a retry; `{}` for a first call). Ignored on 2025 connections, where a server asks with requests.
   */
  inputRequired?: MCPInputRetry;
  /**
   * Who makes this call, in the invoker's own terms (a user, a session: any value, never sent).
   * An elicitation or sampling request the server sends during this call reaches the handlers
   * with it in `context.relatedCall.caller` when the wire links the request to the call (streamable
   * HTTP, on every engine with its default transport), so a host serving several users at once can
   * ask the right one.
   */
  caller?: unknown;
}

/**
 * Per tool (by its MCP name): capability fields that win over annotations and name heuristics.
 * The shape of the options' `capabilityOverrides`, of RegisterToolsOptions' `overrides` and of a
 * server set entry's `tools.overrides`.
 */
export type CapabilityOverridesByTool = Readonly<Record<string, CapabilityOverrides>>;

export interface RegisterToolsOptions {
  /** Per tool (by its MCP name): capability fields that win over annotations and name heuristics. */
  overrides?: CapabilityOverridesByTool;
  /** Registers only the discovered tools this filter keeps. */
  filter?: MCPToolFilter;
  /**
   * Also registers `read_resource` and `get_prompt` (read-only) when the server declares
   * resources / prompts, so a model can read them like any tool. A server tool of the same name wins.
   */
  resourceAndPromptTools?: boolean;
}

/** What `registerTools` did: registered and skipped tool names, and the registry's change. */
export interface RegistrationReport {
  namespace: string;
  /** Full registry names ("namespace/tool"). */
  registered: string[];
  /** MCP tool names the registry would not accept, with its reason. */
  skipped: { name: string; reason: string }[];
  change: RegistryChange;
}

/** Sent after the server's tool list changed and the adapter refreshed its cache. */
export interface ToolsChangedEvent {
  serverName: string;
  /** MCP tool names. */
  added: string[];
  removed: string[];
  /** Tools whose description, schemas, title or annotations differ. */
  changed: string[];
  /** The refreshed tool list (what `discoveredTools` now returns). */
  tools: readonly MCPToolDescriptor[];
  /** One report per registry namespace the adapter re-registered. */
  registrations: RegistrationReport[];
}

export type ToolsChangedListener = (event: ToolsChangedEvent) => void;
