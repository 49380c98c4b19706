import type {
  ConnectOptions,
  HealthChangeListener,
  MCPBuiltInEngine,
  MCPEngine,
  InvokeOptions,
  MCPProtocolEra,
  MCPServerConfig,
  MCPToolDescriptor,
  MCPToolResult,
  MCPServerHealth,
  MCPToolAdapter,
  MCPTransportType,
  RegisterToolsOptions,
  RegistrationReport,
  ToolPinFinding,
  TransportFactory,
} from "@mcp-tool-adapter/adapter";
import type { ToolRegistry } from "@mcp-tool-adapter/registry";
import type { ServerEntry } from "./server-entry.js";

/** Resources, prompts, completions, log level and roots of one server: MCPToolAdapter has them all; a test double may leave them out. */
export type ServerSetProtocolMethods = Partial<
  Pick<
    MCPToolAdapter,
    | "listResources"
    | "listResourceTemplates"
    | "readResource"
    | "readToolUi"
    | "subscribeResource"
    | "listPrompts"
    | "getPrompt"
    | "complete"
    | "setLogLevel"
    | "onLog"
    | "setRoots"
    | "roots"
  >
>;

/** What an MCPServerSet needs from an adapter; MCPToolAdapter fits, and so does any test double of it. */
export interface ServerSetAdapter extends ServerSetProtocolMethods {
  readonly serverName: string;
  readonly transportType: MCPTransportType;
  readonly isConnected: boolean;
  readonly discoveredTools: readonly MCPToolDescriptor[];
  /** Where the connection stands; MCPToolAdapter has it, a test double may leave it out. */
  readonly health?: MCPServerHealth;
  /** The protocol era the connection speaks ("2025" or "2026-07-28"); MCPToolAdapter has it, a test double may leave it out. */
  readonly protocolEra?: MCPProtocolEra | undefined;
  /** With tool pinning: the tools of the last discovery that did not match the lock. */
  readonly pinFindings?: readonly ToolPinFinding[];
  /** Calls `listener` on every change of `health`; the set uses it to register a server that came back after its first connect failed. */
  onHealthChange?(listener: HealthChangeListener): () => void;
  connect(options?: ConnectOptions): Promise<void>;
  disconnect(): Promise<void>;
  registerTools(registry: ToolRegistry, namespace: string, options?: RegisterToolsOptions): Promise<RegistrationReport>;
  unregisterTools(registry: ToolRegistry, namespace: string): void;
  invoke(name: string, args?: Record<string, unknown>, options?: InvokeOptions): Promise<MCPToolResult>;
}

/**
 * Picks the engine of one server (the default factory's adapters): an engine, a built-in one by
 * name (`"sdk-v1"`), or undefined for the adapter's default engine. The CLI uses it to send only
 * some entries through `@mcp-tool-adapter/engine-2026`.
 */
export type ServerSetEngineChoice = (
  config: MCPServerConfig,
  context: { serverName: string; entry: ServerEntry },
) => MCPEngine | MCPBuiltInEngine | undefined;

/**
 * Picks the transport of one server's connections (the default factory's adapters): a factory
 * called on each connect, or undefined for the transport its config names. The CLI uses it to
 * hand over a server process it started before it loaded the adapter.
 */
export type ServerSetTransportChoice = (
  config: MCPServerConfig,
  context: { serverName: string; entry: ServerEntry },
) => TransportFactory | undefined;

/** Builds the adapter of one server; may throw (an invalid config), which fails that server only. */
export type ServerSetAdapterFactory = (
  config: MCPServerConfig,
  context: { serverName: string; entry: ServerEntry },
) => ServerSetAdapter;

/**
 * Why a server failed, from the error's code chain:
 * - `config_invalid`: the entry is not a usable server config (or its name is not a valid namespace)
 * - `timeout`: connect (and registration) did not finish within the server's deadline
 * - `spawn_failed`: the stdio command could not be started
 * - `server_exited`: the process started but exited before or during the handshake
 * - `auth_failed`: HTTP 401 / 403
 * - `connection_failed`: nothing reachable, or the handshake failed otherwise
 * - `discovery_failed`: connected, but tools/list failed
 * - `registration_failed`: the registry refused the tools
 * - `unknown`: anything else (see `error`)
 */
export type ServerFailureKind =
  | "config_invalid"
  | "timeout"
  | "spawn_failed"
  | "server_exited"
  | "auth_failed"
  | "connection_failed"
  | "discovery_failed"
  | "registration_failed"
  | "unknown";

export interface ServerFailure {
  kind: ServerFailureKind;
  /** The most specific `code` in the error's cause chain (e.g. "SPAWN_FAILED"), when there is one. */
  code?: string;
  message: string;
  /** The error as thrown, for logs and debugging. */
  error: unknown;
}

/** The outcome of connecting one server. Times are milliseconds on the set's clock. */
export interface ServerConnectResult {
  name: string;
  transport: MCPTransportType | "unknown";
  status: "connected" | "failed";
  /** Where it failed: building the adapter, connecting (spawn + handshake), or discovering / registering tools. */
  stage?: "config" | "connect" | "register";
  /** Time spent in connect() (process start or HTTP session, plus the MCP handshake). */
  handshakeMs?: number;
  /** The protocol era the server speaks, once connected: "2025" or "2026-07-28". */
  protocolEra?: MCPProtocolEra;
  /** Time from start to connected-and-registered (or to failure). */
  durationMs: number;
  /** Registered full names ("server/tool"). */
  tools: string[];
  /** MCP tools the registry refused (invalid names), with its reason. */
  skipped: { name: string; reason: string }[];
  error?: ServerFailure;
}

export interface ServerSetConnectReport {
  /** One result per server, in declaration order. */
  servers: ServerConnectResult[];
  connected: string[];
  failed: string[];
  /** Registered tools over every connected server. */
  toolCount: number;
  durationMs: number;
  /** True when every server connected. */
  ok: boolean;
}

export interface ServerSetCloseReport {
  closed: string[];
  failed: { name: string; error: ServerFailure }[];
}
