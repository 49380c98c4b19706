import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CapabilityOverrides } from "@mcp-tool-adapter/capability-inference";
import type { Logger, MCPEngine, MCPEngineAuthProvider, MCPProgress } from "@mcp-tool-adapter/core";
import type { RegistryChange } from "@mcp-tool-adapter/registry";
import type { SchemaValidator } from "@mcp-tool-adapter/schema-validation";
import type { MCPServerConfig } from "./config.js";
import type { HealthChangeListener } from "./recovery/health.js";
import type { RecoveryOptions } from "./recovery/options.js";
import type { ToolCallInterceptor } from "./interceptors/types.js";
import type { ToolPinningOptions } from "./pinning/pin-gate.js";
import type { MCPBuiltInEngine } from "./engine/built-in-engines.js";
import type { MCPTelemetryOptions } from "./telemetry/instrumentation.js";
import type { ElicitationHandler, MCPRoot, SamplingHandler } from "./client-features/types.js";
import type {
  MCPLogLevel,
  PromptsChangedListener,
  ResourcesChangedListener,
  ServerLogListener,
} from "./protocol-types.js";

export type { Logger, MCPProgress };

/** Builds a fresh transport for one connection; called on every connect, so reconnect gets a new one. */
export type TransportFactory = (config: MCPServerConfig) => Transport | Promise<Transport>;

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
  | "interceptor_failed";

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
}

export interface RegisterToolsOptions {
  /** Per tool (by its MCP name): capability fields that win over annotations and name heuristics. */
  overrides?: Readonly<Record<string, CapabilityOverrides>>;
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

export interface MCPToolAdapterOptions {
  /**
   * The transport, or a factory called on each connect, for the default engine (SDK 1.x). Without
   * one (and without `engine`), connect throws MCPConfigError.
   */
  transport?: Transport | TransportFactory;
  /**
   * What speaks MCP to the server. Default ("json-rpc"): the adapter's own JSON-RPC session over
   * `transport`, speaking the 2025-era protocol (revisions up to 2025-11-25) with SDK 1.x's types
   * and constants. "sdk-v1": the same protocol through SDK 1.x's Client, for the SDK's exact code
   * path. `createEngine2026()` from `@mcp-tool-adapter/engine-2026` adds revision 2026-07-28 and
   * builds its own transports from the config (`transport` is not used).
   */
  engine?: MCPEngine | MCPBuiltInEngine;
  /**
   * OAuth for an HTTP server on an engine that builds its own transports (`engine`, e.g.
   * engine-2026): an `OAuthClientProvider` such as `@mcp-tool-adapter/oauth`'s. The built-in
   * engines take it from their transport instead; the "mcp-tool-adapter" package passes
   * `transportOptions.http.authProvider` to both.
   */
  authProvider?: MCPEngineAuthProvider;
  /** Validates tool inputs and outputs; default: createSchemaValidator(). Also the SDK client's validator. */
  validator?: SchemaValidator;
  logger?: Logger;
  /** Monotonic clock in ms for durationMs; default performance.now. */
  now?: () => number;
  /** Deadline of a call when invoke gets no timeoutMs. Default 60000. */
  defaultTimeoutMs?: number;
  /** Deadline of connect when it gets no timeoutMs. Default 30000. */
  connectTimeoutMs?: number;
  /** Results larger than this (JSON size in bytes) are refused with errorKind "result_too_large". */
  maxResultBytes?: number;
  /** How long disconnect waits for the transport to close before giving up on it. Default 5000. */
  closeTimeoutMs?: number;
  /** tools/list pages followed at most (guards against servers that paginate forever). Default 1000. */
  maxListPages?: number;
  /** Sent to the server in `initialize`. Default { name: "mcp-tool-adapter", version: "0.0.0" }. */
  clientInfo?: { name: string; version: string };
  /** Called after each tool-list refresh caused by notifications/tools/list_changed. */
  onToolsChanged?: ToolsChangedListener;
  /** Sent with `logging/setLevel` after every connect, when the server declares logging. */
  logLevel?: MCPLogLevel;
  /** Receives each log message of the server (also written to `logger`, tagged with the server's name). */
  onLog?: ServerLogListener;
  /** Server log messages forwarded per second at most; the rest are dropped and counted. Default 200. */
  maxLogMessagesPerSecond?: number;
  /** Called after the server's resource list changed and was listed again. */
  onResourcesChanged?: ResourcesChangedListener;
  /** Called after the server's prompt list changed and was listed again. */
  onPromptsChanged?: PromptsChangedListener;
  /**
   * Answers the server's `elicitation/create` (form and URL mode). Without it the elicitation
   * capability is not declared. A form answer is checked against the server's requestedSchema.
   */
  onElicitation?: ElicitationHandler;
  /** Answers the server's `sampling/createMessage` with the host model. Without it sampling is not declared. */
  onSampling?: SamplingHandler;
  /** With onSampling: declare that the host model can use the tools a server sends with a sampling request. */
  samplingTools?: boolean;
  /** The folders (file:// URIs) the server may work in; declares the roots capability. See setRoots(). */
  roots?: readonly MCPRoot[];
  /** How long an elicitation, sampling handler may take before the server gets a timeout error. Default 300000. */
  clientRequestTimeoutMs?: number;
  /**
   * Restart a server that exits (or start a new session when an HTTP server forgot ours) with
   * backoff, mark it down after too many failures, and send cut-off calls again when that is
   * safe. Off by default; `true` uses the defaults (see docs/recovery.md).
   */
  recovery?: boolean | RecoveryOptions;
  /** Called on every change of `health` (with or without recovery). */
  onHealthChange?: HealthChangeListener;
  /**
   * Per tool (by its MCP name): capability fields that win over the server's annotations and name
   * heuristics, everywhere the adapter decides what a tool may do: retry safety under recovery,
   * the capabilities interceptors (approval) see, and registerTools (whose own overrides win per tool).
   */
  capabilityOverrides?: Readonly<Record<string, CapabilityOverrides>>;
  /** Hooks around every tool call: rewrite arguments and `_meta`, refuse, transform results. See docs/policy.md. */
  interceptors?: readonly ToolCallInterceptor[];
  /** Approved tool definitions (from mcp-tools.lock.json): drifted tools are withheld or warned about. */
  pinning?: ToolPinningOptions;
  /**
   * OpenTelemetry spans and the `mcp.client.operation.duration` histogram for connect, tools/list
   * and tools/call, through @opentelemetry/api (the global providers unless given). `false` turns
   * the instrumentation off entirely.
   */
  telemetry?: MCPTelemetryOptions | false;
}
