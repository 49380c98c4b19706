import type {
  ElicitationHandler,
  HealthChangeListener,
  Logger,
  MCPBuiltInEngine,
  MCPEngine,
  MCPTelemetryOptions,
  PinAction,
  RecoveryOptions,
  RootsListHandler,
  SamplingHandler,
  ServerLogListener,
  ToolCallInterceptor,
  ToolListCacheOptions,
} from "@mcp-tool-adapter/adapter";
import type { CredentialStore, InteractiveOptions } from "@mcp-tool-adapter/oauth";
import type { ToolRegistry } from "@mcp-tool-adapter/registry";
import type { ToolLock } from "../policy/lock-file.js";
import type {
  ServerConnectResult,
  ServerSetAdapterFactory,
  ServerSetEngineChoice,
  ServerSetTransportChoice,
} from "./types.js";

export interface MCPServerSetOptions {
  /** Where every server's tools go, each under its server's name as namespace. Default: a new ToolRegistry. */
  registry?: ToolRegistry;
  /** Builds each server's adapter. Default: MCPToolAdapter with the default stdio / HTTP transports. */
  adapterFactory?: ServerSetAdapterFactory;
  /** Deadline per server for connect plus tool registration, unless its entry sets connectTimeoutMs. Default 30000. */
  connectTimeoutMs?: number;
  /**
   * Deadline of each tool call that sets none itself, unless its server's entry sets
   * callTimeoutMs: the default factory's adapters' `defaultTimeoutMs`. Default 60000 (the adapter's).
   */
  callTimeoutMs?: number;
  /**
   * How long close() waits for one server to disconnect. Default 10000. Set, it is also each adapter's
   * `closeTimeoutMs` (default factory): the budget its session's DELETE and its close share.
   */
  closeTimeoutMs?: number;
  logger?: Logger;
  /** Monotonic clock in ms for the reported timings. Default performance.now. */
  now?: () => number;
  /** Given to every server's adapter (the default factory's); each handler learns which server asks. */
  clientFeatures?: ServerSetClientFeatures;
  /**
   * What speaks MCP for every server (the default factory's adapters): default SDK 1.x;
   * `createEngine2026()` from `@mcp-tool-adapter/engine-2026` for entries with `protocol: "2026-07-28"`;
   * `"sdk-v1"` for SDK 1.x's own Client. A function picks per server (undefined: the default engine).
   */
  engine?: MCPEngine | MCPBuiltInEngine | ServerSetEngineChoice;
  /**
   * The transport of each server's connections (the default factory's adapters): a function picks a
   * transport factory per server, undefined for the one its config names (the default).
   */
  transport?: ServerSetTransportChoice;
  /**
   * Recovery for every server whose entry does not set its own (default factory): `true` for the
   * defaults. Default off. See docs/recovery.md.
   */
  recovery?: boolean | RecoveryOptions;
  /** Every server's health changes, each event naming its server (default factory). */
  onHealthChange?: HealthChangeListener;
  /**
   * For entries with `auth` (the default factory's): where logins are stored (default: the file
   * store in the user's config directory) and what a "needs a login" error tells the user to do.
   */
  auth?: ServerSetAuthOptions;
  /** Around every tool call of every server (the default factory's adapters); see docs/policy.md. */
  interceptors?: readonly ToolCallInterceptor[];
  /** Each server's tools checked against its entry in a lock file (readToolLock); see docs/policy.md. */
  pinning?: ServerSetPinning;
  /** OpenTelemetry providers for every server's adapter, or false to turn the instrumentation off. */
  telemetry?: MCPTelemetryOptions | false;
  /** Tool listings kept across processes for every server (default factory), e.g. in `createFileCacheStore()`. */
  toolListCache?: ToolListCacheOptions;
}

/** How the default adapter factory authorizes HTTP entries: those with `auth`, and logins stored for the others. */
export interface ServerSetAuthOptions {
  /** Default: the file store in the user's config directory. */
  store?: CredentialStore;
  /** Default: "call login() from mcp-tool-adapter for <url>"; the CLI says "run `mcp-tool-adapter login <name>`". */
  loginHint?: (serverName: string) => string;
  /** A human is there: `oauth` entries log in (or step up) during a connection instead of failing with AUTH_REQUIRED. */
  interactive?: InteractiveOptions;
  /**
   * HTTP entries without `auth` (and without an Authorization header) use a login stored for their
   * URL (`login()`, `mcp-tool-adapter login <name>`), refreshed on their own; without one they
   * connect as before, and a 401 fails with AUTH_REQUIRED and the login hint. Default true; false
   * leaves such entries alone (no store read).
   */
  storedLogins?: boolean;
}

/** Tool pinning for a whole set: one lock, the same policy for every server. */
export interface ServerSetPinning {
  lock: ToolLock;
  /** A pinned tool whose definition changed. Default "withhold" (a read-only tool that now writes is always withheld). */
  onDrift?: Exclude<PinAction, "allow">;
  /** A tool (or a whole server) the lock does not know. Default "warn". */
  onUnpinned?: PinAction;
}

/** Handlers every server of a set shares; without one, that capability is not declared to any server. */
export interface ServerSetClientFeatures {
  onElicitation?: ElicitationHandler;
  onSampling?: SamplingHandler;
  samplingTools?: boolean;
  clientRequestTimeoutMs?: number;
  /** Answers each server's `roots/list` (for a server whose entry sets `roots`); see MCPToolAdapterOptions.onRootsList. */
  onRootsList?: RootsListHandler;
  /** Every server's log messages, each tagged with its server's name. */
  onLog?: ServerLogListener;
}

export interface ServerSetConnectOptions {
  /** Called as each server finishes connecting (or fails), before connect() resolves; for progress output. */
  onServerResult?: (result: ServerConnectResult) => void;
}
