import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger, MCPEngine, MCPEngineAuthProvider } from "@mcp-tool-adapter/core";
import type { SchemaValidator } from "@mcp-tool-adapter/schema-validation";
import type { ElicitationHandler, MCPRoot, RootsListHandler, SamplingHandler } from "./client-features/types.js";
import type { MCPBuiltInEngine } from "./engine/built-in-engines.js";
import type { ToolCallInterceptor } from "./interceptors/types.js";
import type { ToolPinningOptions } from "./pinning/pin-gate.js";
import type { ToolListCacheOptions } from "./cache/cache-store.js";
import type {
  MCPLogLevel,
  PromptsChangedListener,
  ResourcesChangedListener,
  ServerLogListener,
} from "./protocol-types.js";
import type { HealthChangeListener } from "./recovery/health.js";
import type { RecoveryOptions } from "./recovery/options.js";
import type { MCPTelemetryOptions } from "./telemetry/instrumentation.js";
import type { TransportFactory } from "./config.js";
import type { CapabilityOverridesByTool, ToolsChangedListener } from "./types.js";

// Everything the adapter can be given. Only the facade (mcp-tool-adapter.ts) and the index import
// this file: each layer below takes the few fields it needs as a type of its own, so the options
// can name any layer's types without an import cycle. (A line comment: the API report shows the
// interface as it always did.)
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
  /**
   * A call of a task tool aborted before the server's CreateTaskResult arrived: how long to keep
   * listening for that answer, to cancel the task it names (`tasks/cancel`) rather than leave it
   * running until its TTL. The call itself ends at once with the abort. Default 5000.
   */
  abortedTaskWaitMs?: number;
  /** Deadline of connect when it gets no timeoutMs. Default 30000. */
  connectTimeoutMs?: number;
  /** Results larger than this (JSON size in bytes) are refused with errorKind "result_too_large". */
  maxResultBytes?: number;
  /** How long disconnect waits for the transport to close before giving up on it. Default 5000. */
  closeTimeoutMs?: number;
  /** tools/list pages followed at most (guards against servers that paginate forever). Default 1000. */
  maxListPages?: number;
  /** Sent to the server in `initialize`. Default { name: "mcp-tool-adapter", version: <this package's version> }. */
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
  /**
   * With `roots`: answers each `roots/list` of the server (given the adapter's roots), for an answer
   * that depends on the moment, e.g. a gateway asking the client whose call runs. Default: the roots.
   */
  onRootsList?: RootsListHandler;
  /** How long an elicitation, sampling or roots handler may take before the server gets a timeout error. Default 300000. */
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
  capabilityOverrides?: CapabilityOverridesByTool;
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
  /**
   * Keep tool listings across processes in a CacheStore (a file store: `createFileCacheStore()` of
   * "mcp-tool-adapter/cache"; or your Redis-like store), so a new process that connects to the
   * same server does not list its tools again. Revalidated by tools/list_changed, never served past
   * the server's `ttlMs` hint. See docs/reference.md.
   */
  toolListCache?: ToolListCacheOptions;
}
