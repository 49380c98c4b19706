import type {
  ElicitationHandler,
  HealthChangeListener,
  Logger,
  MCPBuiltInEngine,
  MCPEngine,
  MCPServerHealth,
  RecoveryOptions,
  MCPTelemetryOptions,
  MCPServerConfig,
  PinAction,
  ToolCallInterceptor,
  RegisterToolsOptions,
  RootsListHandler,
  SamplingHandler,
  ServerLogListener,
  ToolListCacheOptions,
} from "@mcp-tool-adapter/adapter";
import { clampTimer, positiveOr } from "@mcp-tool-adapter/core/value-rules";
import type { CredentialStore, InteractiveOptions } from "@mcp-tool-adapter/oauth";
import { ToolRegistry, validateToolName } from "@mcp-tool-adapter/registry";
import { MCPToolAdapter } from "./mcp-tool-adapter.js";
import type { ToolLock } from "./policy/lock-file.js";
import { classifyServerFailure } from "./server-set/classify-failure.js";
import { MCPServerSetError } from "./server-set/errors.js";
import { loadServerAuth, loadedServerAuth, needsServerAuth } from "./server-set/lazy-server-auth.js";
import type { ServerEntries, ServerEntry } from "./server-set/server-entry.js";
import type {
  ServerConnectResult,
  ServerFailure,
  ServerFailureKind,
  ServerSetAdapter,
  ServerSetAdapterFactory,
  ServerSetCloseReport,
  ServerSetConnectReport,
  ServerSetEngineChoice,
  ServerSetTransportChoice,
} from "./server-set/types.js";

export interface MCPServerSetOptions {
  /** Where every server's tools go, each under its server's name as namespace. Default: a new ToolRegistry. */
  registry?: ToolRegistry;
  /** Builds each server's adapter. Default: MCPToolAdapter with the default stdio / HTTP transports. */
  adapterFactory?: ServerSetAdapterFactory;
  /** Deadline per server for connect plus tool registration, unless its entry sets connectTimeoutMs. Default 30000. */
  connectTimeoutMs?: number;
  /** How long close() waits for one server to disconnect. Default 10000. */
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

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;
/** The adapter enforces the connect deadline itself; ours fires a little later so its more precise error wins. */
const DEADLINE_GRACE_MS = 250;

interface Member {
  readonly name: string;
  readonly entry: ServerEntry;
  adapter?: ServerSetAdapter;
  /** Connected and registered: close() reports on it. */
  connected: boolean;
  registered: boolean;
  /** Stops listening for a server whose first connect failed coming back (recovery on). */
  stopWatching?: () => void;
}

/**
 * Many MCP servers behind one ToolRegistry. `connect()` starts every server in parallel, each
 * with its own deadline, and registers each server's tools under its name (`memory/read_graph`).
 * One server failing never costs the others their tools: the report lists it with a classified
 * error and its timings. `close()` disconnects everything and never throws.
 */
export class MCPServerSet {
  readonly registry: ToolRegistry;
  readonly #members: Member[];
  readonly #factory: ServerSetAdapterFactory;
  /** The factory below, which needs the OAuth code loaded before it builds an HTTP server's adapter. */
  readonly #defaultFactory: boolean;
  readonly #connectTimeoutMs: number;
  readonly #closeTimeoutMs: number;
  readonly #logger: Logger | undefined;
  readonly #now: () => number;
  /** Cleanups of servers that missed their deadline but may still finish connecting. */
  readonly #stragglers = new Set<Promise<void>>();
  #connecting: Promise<ServerSetConnectReport> | undefined;

  constructor(servers: ServerEntries, options: MCPServerSetOptions = {}) {
    this.registry =
      options.registry ?? new ToolRegistry(options.logger === undefined ? {} : { logger: options.logger });
    this.#members = Object.entries(servers).map(([name, entry]) => ({
      name,
      entry,
      connected: false,
      registered: false,
    }));
    this.#factory = options.adapterFactory ?? defaultAdapterFactory(options);
    this.#defaultFactory = options.adapterFactory === undefined;
    this.#connectTimeoutMs = positiveOr(options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS);
    this.#closeTimeoutMs = positiveOr(options.closeTimeoutMs, DEFAULT_CLOSE_TIMEOUT_MS);
    this.#logger = options.logger;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Server names in declaration order. */
  get serverNames(): string[] {
    return this.#members.map((member) => member.name);
  }

  /** The adapter of a server once connect() has built it (connected or not); undefined for an unknown name. */
  getAdapter(serverName: string): ServerSetAdapter | undefined {
    return this.#members.find((member) => member.name === serverName)?.adapter;
  }

  /** Each built adapter's health (servers whose adapter has none are left out), by server name. */
  get health(): Record<string, MCPServerHealth> {
    const health: Record<string, MCPServerHealth> = {};
    for (const member of this.#members)
      if (member.adapter?.health !== undefined) health[member.name] = member.adapter.health;
    return health;
  }

  /**
   * Connects every server in parallel and registers their tools. Resolves (never rejects) with
   * one result per server once each has connected, failed or missed its deadline. Calling it
   * again before close() returns the same report.
   */
  connect(options: ServerSetConnectOptions = {}): Promise<ServerSetConnectReport> {
    this.#connecting ??= this.#connectAll(options);
    return this.#connecting;
  }

  /**
   * Unregisters every server's tools and disconnects every adapter, in parallel. Never throws:
   * failures are in the report. After it, connect() starts afresh.
   */
  async close(): Promise<ServerSetCloseReport> {
    const connecting = this.#connecting;
    if (connecting !== undefined) await connecting;
    const results = await Promise.all(this.#members.map((member) => this.#closeMember(member)));
    await Promise.all([...this.#stragglers]);
    this.#connecting = undefined;
    const report: ServerSetCloseReport = { closed: [], failed: [] };
    for (const result of results) {
      if (result === undefined) continue;
      if (result.error === undefined) report.closed.push(result.name);
      else report.failed.push({ name: result.name, error: result.error });
    }
    return report;
  }

  async #connectAll(options: ServerSetConnectOptions): Promise<ServerSetConnectReport> {
    const start = this.#now();
    const servers = await Promise.all(
      this.#members.map(async (member) => {
        const result = await this.#connectMember(member);
        if (result.status === "failed") {
          this.#logger?.warn?.(
            `MCP server "${member.name}" failed (${result.error?.kind ?? "unknown"}): ${result.error?.message ?? ""}`,
          );
        }
        try {
          options.onServerResult?.(result);
        } catch (error) {
          this.#logger?.warn?.(`onServerResult threw for server "${member.name}"; ignored`, { error });
        }
        return result;
      }),
    );
    return {
      servers,
      connected: servers.filter((s) => s.status === "connected").map((s) => s.name),
      failed: servers.filter((s) => s.status === "failed").map((s) => s.name),
      toolCount: servers.reduce((sum, s) => sum + s.tools.length, 0),
      durationMs: this.#now() - start,
      ok: servers.every((s) => s.status === "connected"),
    };
  }

  async #connectMember(member: Member): Promise<ServerConnectResult> {
    const start = this.#now();
    const { name, entry } = member;
    const failed = (
      stage: ServerConnectResult["stage"],
      error: unknown,
      fallback: ServerFailureKind,
      extra: Partial<ServerConnectResult> = {},
    ): ServerConnectResult => ({
      name,
      transport: member.adapter?.transportType ?? entry.transport,
      status: "failed",
      stage,
      durationMs: this.#now() - start,
      tools: [],
      skipped: [],
      error: classifyServerFailure(error, fallback),
      ...extra,
    });

    const nameProblem = validateToolName("namespace", name);
    if (nameProblem !== undefined) {
      const error = new MCPServerSetError(
        "SERVER_NAME_INVALID",
        `Server name "${name}" cannot be a tool namespace: ${nameProblem}. Rename the server in the config.`,
        { serverName: name },
      );
      return failed("config", error, "config_invalid");
    }
    let adapter: ServerSetAdapter;
    try {
      if (this.#defaultFactory && needsServerAuth(entry)) await loadServerAuth();
      adapter = this.#factory(toServerConfig(name, entry), { serverName: name, entry });
    } catch (error) {
      return failed("config", error, "config_invalid");
    }
    member.adapter = adapter;

    const timeoutMs = positiveOr(entry.connectTimeoutMs, this.#connectTimeoutMs);
    // Written by the work below and read when it fails or times out, so kept in one object.
    const progress: { stage: "connect" | "register"; handshakeMs?: number } = { stage: "connect" };
    const work = (async () => {
      await adapter.connect({ timeoutMs });
      progress.handshakeMs = this.#now() - start;
      progress.stage = "register";
      const report = await adapter.registerTools(this.registry, name, registerOptions(entry));
      member.registered = true;
      return report;
    })();

    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), clampTimer(timeoutMs + DEADLINE_GRACE_MS));
    });
    try {
      const outcome = await Promise.race([work, deadline]);
      if (outcome === "timeout") {
        this.#abandon(member, work);
        const error = new MCPServerSetError(
          "SERVER_TIMEOUT",
          `MCP server "${name}" did not connect and list its tools within ${timeoutMs} ms. Raise the timeout (connectTimeoutMs) or check that the server starts.`,
          { serverName: name },
        );
        return failed(progress.stage, error, "timeout", timing(progress));
      }
      member.connected = true;
      return {
        name,
        transport: adapter.transportType,
        status: "connected",
        ...(adapter.protocolEra === undefined ? {} : { protocolEra: adapter.protocolEra }),
        ...timing(progress),
        durationMs: this.#now() - start,
        tools: [...outcome.registered],
        skipped: [...outcome.skipped],
      };
    } catch (error) {
      // Connected but could not list or register: do not leave the server running.
      if (progress.stage === "register") await this.#disconnectQuietly(adapter, name);
      else this.#registerWhenBack(member, adapter);
      return failed(
        progress.stage,
        error,
        progress.stage === "register" ? "registration_failed" : "connection_failed",
        timing(progress),
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A server whose first connect failed while its adapter keeps trying in the background (recovery
   * on: its health is down, not disconnected): its tools are registered once it is back, and it is
   * then closed like any connected server. The connect report keeps saying it failed.
   */
  #registerWhenBack(member: Member, adapter: ServerSetAdapter): void {
    if (adapter.onHealthChange === undefined || adapter.health === undefined) return;
    if (!adapter.health.recovery || adapter.health.state === "disconnected") return;
    member.stopWatching = adapter.onHealthChange((event) => {
      if (event.to !== "connected" || member.adapter !== adapter || member.registered) return;
      const registering = adapter
        .registerTools(this.registry, member.name, registerOptions(member.entry))
        .then(
          (report) => {
            if (member.adapter !== adapter) {
              // close() took the server meanwhile: leave nothing in the registry.
              this.#unregisterQuietly(adapter, member.name);
              return;
            }
            member.registered = true;
            member.connected = true;
            this.#logger?.info?.(
              `MCP server "${member.name}" is back after its first connect failed: ${report.registered.length} tools registered`,
            );
          },
          (error: unknown) => {
            if (member.adapter !== adapter) return; // closed meanwhile: the failure is the close's
            this.#logger?.warn?.(
              `MCP server "${member.name}" is back, but registering its tools failed; they are registered when it reconnects`,
              { error },
            );
          },
        )
        .finally(() => this.#stragglers.delete(registering));
      this.#stragglers.add(registering);
    });
  }

  /** A server missed its deadline: whenever its work settles, take its tools back out and disconnect it. */
  #abandon(member: Member, work: Promise<unknown>): void {
    const adapter = member.adapter;
    member.adapter = undefined;
    const cleanup = work
      .catch(() => undefined)
      .then(async () => {
        if (adapter === undefined) return;
        if (member.registered) {
          member.registered = false;
          this.#unregisterQuietly(adapter, member.name);
        }
        await this.#disconnectQuietly(adapter, member.name);
      })
      .finally(() => this.#stragglers.delete(cleanup));
    this.#stragglers.add(cleanup);
  }

  async #closeMember(member: Member): Promise<{ name: string; error?: ServerFailure } | undefined> {
    member.stopWatching?.();
    member.stopWatching = undefined;
    const adapter = member.adapter;
    if (adapter === undefined) return undefined;
    member.adapter = undefined;
    if (!member.connected) {
      // Its connect failed and left nothing running; disconnect anyway in case it half-opened.
      await this.#disconnectQuietly(adapter, member.name);
      return undefined;
    }
    member.connected = false;
    if (member.registered) {
      member.registered = false;
      this.#unregisterQuietly(adapter, member.name);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const outcome = await Promise.race([
        adapter.disconnect().then(() => "closed" as const),
        new Promise<"timeout">((resolve) => {
          timer = setTimeout(() => resolve("timeout"), clampTimer(this.#closeTimeoutMs));
        }),
      ]);
      if (outcome === "timeout") {
        const error = new MCPServerSetError(
          "SERVER_TIMEOUT",
          `MCP server "${member.name}" did not disconnect within ${this.#closeTimeoutMs} ms.`,
          { serverName: member.name },
        );
        return { name: member.name, error: classifyServerFailure(error, "timeout") };
      }
      return { name: member.name };
    } catch (error) {
      return { name: member.name, error: classifyServerFailure(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  #unregisterQuietly(adapter: ServerSetAdapter, name: string): void {
    try {
      adapter.unregisterTools(this.registry, name);
    } catch (error) {
      this.#logger?.warn?.(`Removing the tools of MCP server "${name}" from the registry failed`, { error });
    }
  }

  async #disconnectQuietly(adapter: ServerSetAdapter, name: string): Promise<void> {
    try {
      await adapter.disconnect();
    } catch (error) {
      this.#logger?.warn?.(`Disconnecting MCP server "${name}" failed`, { error });
    }
  }
}

function defaultAdapterFactory(options: MCPServerSetOptions): ServerSetAdapterFactory {
  const {
    logger,
    clientFeatures = {},
    interceptors,
    pinning,
    telemetry,
    auth = {},
    recovery,
    onHealthChange,
    engine,
    toolListCache,
    transport,
  } = options;
  return (config, { entry, serverName }) => {
    const chosen = typeof engine === "function" ? engine(config, { entry, serverName }) : engine;
    const ownTransport = transport?.(config, { entry, serverName });
    // The OAuth code (loadedServerAuth) was imported by #connectMember for an HTTP server.
    const authProvider =
      config.transport === "stdio"
        ? undefined
        : entry.auth !== undefined
          ? loadedServerAuth().createServerAuthProvider(config.url, entry.auth, {
              ...(auth.store === undefined ? {} : { store: auth.store }),
              ...(auth.loginHint === undefined ? {} : { loginHint: auth.loginHint(serverName) }),
              ...(auth.interactive === undefined ? {} : { interactive: auth.interactive }),
            })
          : auth.storedLogins === false || hasAuthorizationHeader(config.headers)
            ? undefined
            : // No login prompt here: the config did not ask for OAuth, so a 401 names the login command instead.
              loadedServerAuth().createServerAuthProvider(
                config.url,
                { type: "oauth" },
                {
                  ...(auth.store === undefined ? {} : { store: auth.store }),
                  ...(auth.loginHint === undefined ? {} : { loginHint: auth.loginHint(serverName) }),
                  ...(logger === undefined ? {} : { logger }),
                  onlyWithStoredLogin: true,
                },
              );
    return new MCPToolAdapter(config, {
      ...(logger === undefined ? {} : { logger }),
      ...(chosen === undefined ? {} : { engine: chosen }),
      ...(ownTransport === undefined ? {} : { transport: ownTransport }),
      ...clientFeatures,
      ...(interceptors === undefined ? {} : { interceptors }),
      ...(telemetry === undefined ? {} : { telemetry }),
      ...(toolListCache === undefined ? {} : { toolListCache }),
      ...(pinning === undefined
        ? {}
        : {
            pinning: {
              pins: Object.hasOwn(pinning.lock.servers, serverName)
                ? (pinning.lock.servers[serverName] ?? { tools: {} })
                : { tools: {} },
              ...(pinning.onDrift === undefined ? {} : { onDrift: pinning.onDrift }),
              ...(pinning.onUnpinned === undefined ? {} : { onUnpinned: pinning.onUnpinned }),
            },
          }),
      ...(entry.tools?.overrides === undefined ? {} : { capabilityOverrides: entry.tools.overrides }),
      ...(entry.roots === undefined ? {} : { roots: entry.roots }),
      ...(entry.logLevel === undefined ? {} : { logLevel: entry.logLevel }),
      ...(authProvider === undefined ? {} : { transportOptions: { http: { authProvider } } }),
      ...(onHealthChange === undefined ? {} : { onHealthChange }),
      ...(entry.recovery !== undefined ? { recovery: entry.recovery } : recovery === undefined ? {} : { recovery }),
    });
  };
}

function hasAuthorizationHeader(headers: Readonly<Record<string, string>> | undefined): boolean {
  return Object.keys(headers ?? {}).some((name) => name.toLowerCase() === "authorization");
}

function toServerConfig(name: string, entry: ServerEntry): MCPServerConfig {
  const {
    tools: _tools,
    connectTimeoutMs: _connectTimeoutMs,
    roots: _roots,
    logLevel: _logLevel,
    auth: _auth,
    recovery: _recovery,
    ...config
  } = entry;
  return { ...config, name };
}

function registerOptions(entry: ServerEntry): RegisterToolsOptions {
  const tools = entry.tools;
  if (tools === undefined) return {};
  const options: RegisterToolsOptions = {};
  if (tools.overrides !== undefined) options.overrides = tools.overrides;
  if (tools.include !== undefined || tools.exclude !== undefined) {
    options.filter = {
      ...(tools.include === undefined ? {} : { include: tools.include }),
      ...(tools.exclude === undefined ? {} : { exclude: tools.exclude }),
    };
  }
  return options;
}

function timing(progress: { handshakeMs?: number }): { handshakeMs?: number } {
  return progress.handshakeMs === undefined ? {} : { handshakeMs: progress.handshakeMs };
}
