import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Implementation, ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type {
  MCPEngine,
  MCPEngineAuthProvider,
  MCPEngineConnection,
  MCPEngineMessage,
  MCPEngineRequestOptions as RequestOptions,
  MCPProtocolEra,
} from "@mcp-tool-adapter/core";
import {
  inferCapabilities,
  type CapabilityOverrides,
  type ToolCapability,
} from "@mcp-tool-adapter/capability-inference";
import type { ToolRegistry } from "@mcp-tool-adapter/registry";
import {
  createSchemaValidator,
  createSdkJsonSchemaValidator,
  omitNullOptionals,
  type SchemaValidator,
} from "@mcp-tool-adapter/schema-validation";
import { callFailure, callResult, failure, reasonSuffix, type CallOutcomeContext } from "./call-outcome.js";
import { validateServerConfig, type MCPServerConfig, type MCPTransportType } from "./config.js";
import { refuseConfigAuth } from "./config-auth.js";
import { Deadline } from "./deadline.js";
import {
  describeCause,
  MCPConfigError,
  MCPConnectionError,
  MCPNotConnectedError,
  MCPServerUnavailableError,
  MCPUsageError,
  withoutFullStop,
} from "./errors.js";
import { InterceptorChain } from "./interceptors/interceptor-chain.js";
import { checkEngineProtocol } from "./engine/engine-choice.js";
import { chooseEngine, isBuiltInEngine } from "./engine/built-in-engines.js";
import { PinGate, type ToolPinFinding } from "./pinning/pin-gate.js";
import { Instrumentation, type TracedOperation } from "./telemetry/instrumentation.js";
import { Redactor } from "./redaction.js";
import { SerialQueue } from "./serial-queue.js";
import { ConnectionLost, settlePending, type PendingRequest, type Session } from "./session.js";
import { clampTimer, positiveOr, withTimeout } from "./timeouts.js";
import { ToolCatalog, type CatalogEntry } from "./tool-catalog.js";
import { ToolSync } from "./tool-sync.js";
import { createdTaskId } from "./tool-task.js";
import type {
  MCPCompleteOptions,
  MCPCompletion,
  MCPCompletionReference,
  MCPPrompt,
  MCPPromptMessages,
  MCPRequestOptions,
  MCPRequestResult,
  MCPResource,
  MCPResourceContents,
  MCPResourceSubscription,
  MCPResourceTemplate,
  PromptsChangedListener,
  ResourcesChangedListener,
  ResourceUpdatedListener,
  ServerLogListener,
} from "./protocol-types.js";
import { ServerFeatures } from "./server-features.js";
import { invokeWithRecovery, type CallAttempt } from "./recovery/call-retry.js";
import { isSessionExpired, neverReachedServer } from "./recovery/call-safety.js";
import type { CapabilityOverridesByTool } from "./tool-capabilities.js";
import type { HealthChangeListener, MCPServerHealth } from "./recovery/health.js";
import { recoveryPolicy, type RecoveryPolicy } from "./recovery/options.js";
import { RecoverySupervisor } from "./recovery/supervisor.js";
import { buildFeatureTools } from "./feature-tools.js";
import { ClientFeatures } from "./client-features/client-features.js";
import type { MCPRoot } from "./client-features/types.js";
import { describeTransportFailure, isConnectionGone } from "./transport-failure.js";
import { closeQuietly } from "./transport-lifecycle.js";
import type { MCPLogLevel } from "./protocol-types.js";
import type {
  ConnectOptions,
  InvokeOptions,
  Logger,
  MCPToolAdapterOptions,
  MCPToolDescriptor,
  MCPToolFilter,
  MCPToolResult,
  RegisterToolsOptions,
  RegistrationReport,
  ToolsChangedListener,
  TransportFactory,
} from "./types.js";

const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_LIST_PAGES = 1_000;
const DEFAULT_CLIENT_INFO = Object.freeze({ name: "mcp-tool-adapter", version: "0.0.0" });

type LifecycleKind = "connect" | "disconnect" | "reconnect" | "recover";

/**
 * Connects one MCP server to an agent runtime: discovers its tools, validates arguments against
 * their input schemas, invokes them with deadlines and cancellation, and registers them in a
 * ToolRegistry. Lifecycle changes run one at a time; every other method may be called
 * concurrently. Only "not connected" (and bad config) throw; a failed call is a result.
 */
export class MCPToolAdapter {
  readonly serverName: string;
  readonly transportType: MCPTransportType;
  readonly config: Readonly<MCPServerConfig>;

  readonly #transportSource: Transport | TransportFactory | undefined;
  readonly #authProvider: MCPEngineAuthProvider | undefined;
  /** Speaks MCP for the adapter: the default SDK 1.x engine, or one given in the options. */
  readonly #engine: MCPEngine;
  readonly #validator: SchemaValidator;
  readonly #logger: Logger | undefined;
  readonly #now: () => number;
  readonly #defaultTimeoutMs: number;
  readonly #connectTimeoutMs: number;
  readonly #closeTimeoutMs: number;
  readonly #clientInfo: Implementation;
  /** Keeps the config's credentials out of every message, result error, log line and cause. */
  readonly #redactor: Redactor;
  /** What the call-result builders read; fixed at construction. */
  readonly #outcome: CallOutcomeContext;

  readonly #lifecycle = new SerialQueue<LifecycleKind>();
  #session: Session | undefined;
  /** Discovery, the tool cache, list-changed refreshes and registry namespaces. */
  readonly #tools: ToolSync;
  /** Resources, prompts, completions and the server's log messages. */
  readonly #features: ServerFeatures;
  /** Elicitation, sampling and roots: what this client offers the server. */
  readonly #clientFeatures: ClientFeatures;
  /** Health, and (when recovery is on) restarts, the circuit breaker and call retries. */
  readonly #recoveryPolicy: RecoveryPolicy | undefined;
  readonly #supervisor: RecoverySupervisor;
  /** The interceptors around every call (empty: the call path skips them). */
  readonly #interceptors: InterceptorChain;
  /** The user's capability corrections by tool name: applied wherever a tool's capability is decided. */
  readonly #capabilityOverrides: CapabilityOverridesByTool | undefined;
  /** Tool pinning: withholds tools whose definitions drifted from the lock. */
  readonly #pins: PinGate | undefined;
  /** OpenTelemetry spans and metrics; undefined when turned off. */
  readonly #instrumentation: Instrumentation | undefined;

  constructor(config: MCPServerConfig, options: MCPToolAdapterOptions = {}) {
    const valid = validateServerConfig(config);
    refuseConfigAuth(valid);
    this.config = Object.freeze({ ...valid });
    this.serverName = valid.name;
    this.transportType = valid.transport;
    this.#transportSource = options.transport;
    this.#authProvider = options.authProvider;
    this.#validator =
      options.validator ?? createSchemaValidator(options.logger === undefined ? {} : { logger: options.logger });

    this.#redactor = Redactor.forConfig(valid);
    this.#logger = this.#redactor.logger(options.logger);
    this.#now = options.now ?? (() => performance.now());
    this.#defaultTimeoutMs = positiveOr(options.defaultTimeoutMs, DEFAULT_CALL_TIMEOUT_MS);
    this.#connectTimeoutMs = positiveOr(options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS);
    this.#closeTimeoutMs = positiveOr(options.closeTimeoutMs, DEFAULT_CLOSE_TIMEOUT_MS);
    this.#engine = chooseEngine(options.engine, {
      transport: options.transport,
      closeTimeoutMs: this.#closeTimeoutMs,
      jsonSchemaValidator: () => createSdkJsonSchemaValidator(this.#validator),
    });
    checkEngineProtocol(this.#engine, valid, typeof options.engine !== "object");
    this.#clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
    this.#outcome = {
      serverName: this.serverName,
      maxResultBytes:
        options.maxResultBytes === undefined ? undefined : positiveOr(options.maxResultBytes, Number.POSITIVE_INFINITY),
      validator: this.#validator,
      redactor: this.#redactor,
      now: this.#now,
    };
    this.#interceptors = new InterceptorChain(options.interceptors);
    this.#capabilityOverrides = options.capabilityOverrides;
    const pins =
      options.pinning === undefined ? undefined : new PinGate(options.pinning, this.serverName, this.#logger);
    this.#pins = pins;
    this.#instrumentation =
      options.telemetry === false ? undefined : new Instrumentation(options.telemetry ?? {}, valid);
    this.#tools = new ToolSync({
      serverName: this.serverName,
      logger: this.#logger,
      redactor: this.#redactor,
      maxListPages: Math.floor(positiveOr(options.maxListPages, DEFAULT_MAX_LIST_PAGES)),
      request: (session, request) => this.#tracedRequest(session, request),
      ...(pins === undefined ? {} : { gate: (tools: readonly MCPToolDescriptor[]) => pins.check(tools) }),
      isCurrent: (session) => session === this.#session,
      invoke: (name, args, invokeOptions) => this.invoke(name, args, invokeOptions),
      featureTools: () =>
        buildFeatureTools({
          serverName: this.serverName,
          capabilities: () => this.serverCapabilities,
          readResource: (uri, requestOptions) => this.readResource(uri, requestOptions),
          getPrompt: (name, args, requestOptions) => this.getPrompt(name, args, requestOptions),
        }),
    });
    if (options.onToolsChanged !== undefined) this.#tools.addListener(options.onToolsChanged);
    this.#features = new ServerFeatures(
      {
        serverName: this.serverName,
        logger: this.#logger,
        redactor: this.#redactor,
        now: this.#now,
        maxListPages: Math.floor(positiveOr(options.maxListPages, DEFAULT_MAX_LIST_PAGES)),
        defaultTimeoutMs: this.#defaultTimeoutMs,
        maxResultBytes: this.#outcome.maxResultBytes,
        request: (session, request, requestOptions: RequestOptions = {}, signal?: AbortSignal) =>
          this.#request(session, request, requestOptions, signal),
        current: () => this.#session,
      },
      options,
    );
    this.#clientFeatures = new ClientFeatures(
      { serverName: this.serverName, logger: this.#logger, validator: this.#validator, current: () => this.#session },
      options,
    );
    this.#recoveryPolicy = recoveryPolicy(options.recovery);
    this.#supervisor = new RecoverySupervisor(
      {
        serverName: this.serverName,
        logger: this.#logger,
        now: this.#now,
        reopen: (signal) => this.#lifecycle.run("recover", () => this.#recover(signal)),
      },
      this.#recoveryPolicy,
    );
    if (options.onHealthChange !== undefined) this.#supervisor.addListener(options.onHealthChange);
  }

  /** Capabilities from name heuristics alone (annotations and overrides are optional inputs). */
  static inferCapabilities(
    toolName: string,
    annotations?: Parameters<typeof inferCapabilities>[1],
    overrides?: CapabilityOverrides,
  ): ToolCapability {
    return inferCapabilities(toolName, annotations, overrides);
  }

  get isConnected(): boolean {
    return this.#session !== undefined;
  }

  /** What the server declared in `initialize` (or `server/discover`); undefined while not connected. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#session?.connection.serverCapabilities;
  }

  /** The server's name and version from `initialize` (or `server/discover`); undefined while not connected. */
  get serverInfo(): Implementation | undefined {
    return this.#session?.connection.serverInfo;
  }

  /** The era the connection speaks: "2025" (the initialize handshake) or "2026-07-28"; undefined while not connected. */
  get protocolEra(): MCPProtocolEra | undefined {
    return this.#session?.connection.era;
  }

  /** The negotiated protocol revision, e.g. "2025-11-25"; undefined while not connected. */
  get protocolVersion(): string | undefined {
    return this.#session?.connection.protocolVersion;
  }

  /** Where the connection stands (connected, reconnecting, down, ...), frozen; see docs/recovery.md. */
  get health(): MCPServerHealth {
    return this.#supervisor.health;
  }

  /** Calls `listener` on every change of `health`; returns the unsubscribe function. */
  onHealthChange(listener: HealthChangeListener): () => void {
    assertFunction(listener, "onHealthChange", "listener");
    return this.#supervisor.addListener(listener);
  }

  /** The tools of the last discovery (filtered), frozen; empty before discovery and after reconnect. */
  get discoveredTools(): readonly MCPToolDescriptor[] {
    return this.#tools.tools;
  }

  /** With `pinning`: the tools of the last discovery that did not match the lock, and what was done. */
  get pinFindings(): readonly ToolPinFinding[] {
    return this.#pins?.findings ?? [];
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Starts the transport and performs the MCP handshake. Idempotent; concurrent calls share one
   * handshake. On failure or timeout throws MCPConnectionError and leaves nothing running.
   */
  connect(options: ConnectOptions = {}): Promise<void> {
    const tail = this.#lifecycle.tail;
    if (tail?.kind === "connect") return tail.promise;
    if (tail === undefined && this.#session !== undefined) return Promise.resolve();
    const timeoutMs = positiveOr(options.timeoutMs, this.#connectTimeoutMs);
    const ticket = this.#supervisor.connectTicket();
    return this.#lifecycle.run("connect", async () => {
      await this.#open(timeoutMs, "connect").catch((error: unknown) => {
        // With recovery on, a server that fails its first connect is supervised from here (it still throws).
        if (MCPConnectionError.isInstance(error)) this.#supervisor.connectFailed(ticket, error.message);
        throw error;
      });
      this.#supervisor.connected("connect() was called");
    });
  }

  /**
   * Closes the connection. Safe when not connected; a transport that fails to close still ends
   * disconnected. Calls in flight settle with a "connection lost: connection closed" result.
   */
  disconnect(): Promise<void> {
    // At once, not when the job runs: no restart may be queued behind this disconnect.
    this.#supervisor.disconnected("disconnect() was called");
    const tail = this.#lifecycle.tail;
    if (tail?.kind === "disconnect") return tail.promise;
    if (tail === undefined && this.#session === undefined) return Promise.resolve();
    return this.#lifecycle.run("disconnect", () => this.#close("disconnect() was called"));
  }

  /** Disconnects, clears the tool cache, connects again; MCPConnectionError when that fails. */
  reconnect(options: ConnectOptions = {}): Promise<void> {
    const timeoutMs = positiveOr(options.timeoutMs, this.#connectTimeoutMs);
    return this.#lifecycle.run("reconnect", async () => {
      await this.#close("reconnect() was called");
      this.#tools.clear();
      try {
        await this.#open(timeoutMs, "reconnect");
      } catch (error) {
        this.#supervisor.disconnected("reconnect() failed");
        throw error;
      }
      this.#supervisor.connected("reconnect() was called");
    });
  }

  /**
   * One automatic recovery attempt (queued like connect): a new session, then the tools listed
   * again and every registered namespace replaced at once. Resource subscriptions and the log
   * level are sent again by the session's opening; the tool filter is kept.
   */
  async #recover(signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw new Error("recovery was stopped: the host connected or disconnected");
    if (this.#session !== undefined) return;
    const previous = this.#tools.catalog;
    await this.#open(this.#connectTimeoutMs, "reconnect");
    const current = (): Session | undefined => this.#session;
    const session = current();
    if (session === undefined) throw new Error("the new connection closed at once");
    try {
      await this.#tools.resync(session, previous);
    } catch (error) {
      this.#logger?.warn?.(
        `MCP server "${this.serverName}" is back, but listing its tools again failed: ${describeCause(error)}`,
        { error },
      );
    }
    if (current() !== session) throw new Error("the new connection closed while its tools were listed");
  }

  async #open(timeoutMs: number, operation: "connect" | "reconnect"): Promise<void> {
    if (this.#session !== undefined) return;
    if (this.#transportSource === undefined && isBuiltInEngine(this.#engine)) {
      throw new MCPConfigError(
        `MCP server "${this.serverName}" has no transport: pass { transport } (an SDK Transport or a factory) to the MCPToolAdapter constructor, or use the "mcp-tool-adapter" package, whose MCPToolAdapter builds ${this.transportType} transports from the config.`,
        [{ path: "/transport", message: "no transport was given to the adapter" }],
      );
    }
    const loadingTelemetry = this.#instrumentation?.ready();
    if (loadingTelemetry !== undefined) await loadingTelemetry;
    const deadline = new Deadline(timeoutMs);
    const started = this.#now();
    const traced = this.#instrumentation?.start("initialize");
    // Notifications during the handshake find no session yet; the ones that need it wait for discovery.
    const opened: { session?: Session } = {};
    const connecting = this.#engine.connect({
      server: this.config,
      ...(this.#authProvider === undefined ? {} : { authProvider: this.#authProvider }),
      clientInfo: this.#clientInfo,
      capabilities: this.#clientFeatures.capabilities(),
      requestHandlers: this.#clientFeatures.requestHandlers(),
      listeners: {
        notification: (message) => {
          this.#notification(message, opened.session);
        },
        closed: () => {
          if (opened.session !== undefined) this.#onConnectionDropped(opened.session);
        },
        error: (error) => {
          this.#logger?.debug?.(`MCP server "${this.serverName}" transport error: ${describeCause(error)}`, { error });
        },
      },
      timeoutMs,
      signal: deadline.signal,
    });
    let connection: MCPEngineConnection;
    try {
      connection = await deadline.race(connecting, (late) => void closeQuietly(late, this.#closeTimeoutMs));
    } catch (error) {
      deadline.clear();
      // The engine closes what it started once its signal fired; the failure is reported after that.
      if (deadline.expired) await settledWithin(connecting, this.#closeTimeoutMs);
      const why = deadline.expired ? `timed out after ${timeoutMs} ms` : describeTransportFailure(error);
      const failed = new MCPConnectionError(
        this.#redactor.text(
          `${operation === "reconnect" ? "Reconnect failed: c" : "C"}ould not establish a connection to MCP server "${this.serverName}" over ${this.transportType}: ${withoutFullStop(why)}. Check that the server can start (or is reachable) and try again.`,
        ),
        { serverName: this.serverName, transportType: this.transportType, cause: this.#redactor.value(error) },
      );
      if (traced !== undefined)
        this.#instrumentation?.end(traced, this.#now() - started, {
          errorType: deadline.expired ? "timeout" : "connection_failed",
          message: failed.message,
        });
      throw failed;
    }
    deadline.clear();
    if (traced !== undefined) this.#instrumentation?.end(traced, this.#now() - started);
    const session: Session = {
      connection,
      state: "open",
      pending: new Set(),
      discovery: undefined,
      refresh: undefined,
      refreshAgain: false,
    };
    opened.session = session;
    this.#session = session;
    this.#tools.sessionOpened(session);
    this.#features.sessionOpened(session);
    this.#logger?.debug?.(`Connected to MCP server "${this.serverName}" over ${this.transportType}`);
  }

  /** A notification of the server, to the part of the adapter that follows it. */
  #notification(message: MCPEngineMessage, session: Session | undefined): void {
    if (message.method === "notifications/tools/list_changed") {
      if (session !== undefined) this.#tools.listChanged(session);
      return;
    }
    this.#features.notification(message, session);
  }

  async #close(why: string): Promise<void> {
    const session = this.#session;
    if (session === undefined) return;
    this.#session = undefined;
    session.state = "closed";
    settlePending(session, why);
    try {
      await withTimeout(session.connection.close(), this.#closeTimeoutMs, "transport close");
    } catch (error) {
      this.#logger?.warn?.(
        `Closing the connection to MCP server "${this.serverName}" failed; it is disconnected anyway: ${describeCause(error)}`,
        { error },
      );
    }
  }

  /**
   * The connection went away without our disconnect: the transport closed (the server exited or
   * dropped the socket), or a send failed because it is gone (noticed before the transport closes).
   */
  #onConnectionDropped(session: Session, why = "the server closed the connection", immediate = false): void {
    if (session.state !== "open") return;
    session.state = "closed";
    const current = this.#session === session;
    if (current) this.#session = undefined;
    // Before the calls in flight settle, so that they find recovery already under way.
    if (current) this.#supervisor.connectionLost(why, immediate);
    settlePending(session, why);
    this.#logger?.warn?.(
      `MCP server "${this.serverName}" connection lost (${why}); ${this.#recoveryPolicy === undefined ? "call reconnect() to continue" : "recovering"}`,
    );
    // The transport says it closed; close it again anyway so a half-dead process or socket is reaped.
    void closeQuietly(session.connection, this.#closeTimeoutMs);
  }

  #requireSession(action: string): Session {
    const session = this.#session;
    if (session === undefined) throw this.#notConnected(action);
    return session;
  }

  #notConnected(action: string): MCPNotConnectedError | MCPServerUnavailableError {
    const state = this.#supervisor.state;
    if (state === "down") {
      return new MCPServerUnavailableError(`Cannot ${action}: ${this.#supervisor.downMessage()}`, {
        serverName: this.serverName,
      });
    }
    if (state === "reconnecting" || state === "probing") {
      return new MCPNotConnectedError(
        `Cannot ${action}: MCP server "${this.serverName}" is being reconnected after its connection was lost; try again shortly (tool calls wait for it).`,
        { serverName: this.serverName },
      );
    }
    return new MCPNotConnectedError(
      `Cannot ${action}: not connected to MCP server "${this.serverName}". Call connect() first (or reconnect() after the connection dropped).`,
      { serverName: this.serverName },
    );
  }

  // ---------------------------------------------------------------- tools

  /**
   * Lists every tool (following pagination), keeps the ones `filter` allows, caches them and
   * returns them. Throws MCPNotConnectedError when not connected, MCPDiscoveryError when the
   * server's listing fails.
   */
  async discoverTools(filter?: MCPToolFilter): Promise<MCPToolDescriptor[]> {
    const session = this.#requireSession("discover tools");
    const catalog = await this.#tools.discover(session, filter);
    return [...catalog.tools];
  }

  /**
   * Registers every discovered tool (discovering first when needed) as `namespace/tool`,
   * replacing the namespace atomically. Tool names the registry rejects are skipped and
   * reported. Later tools/list_changed notifications update the namespace again.
   */
  registerTools(
    registry: ToolRegistry,
    namespace: string,
    options: RegisterToolsOptions = {},
  ): Promise<RegistrationReport> {
    // A registration's own overrides win per tool over the adapter's.
    const overrides =
      this.#capabilityOverrides === undefined && options.overrides === undefined
        ? undefined
        : { ...this.#capabilityOverrides, ...options.overrides };
    const registration = overrides === undefined ? options : { ...options, overrides };
    return this.#tools.register(registry, namespace, registration, () =>
      this.#requireSession(`register tools in namespace "${namespace}"`),
    );
  }

  /** Removes the namespace from the registry and stops updating it on tool-list changes. */
  unregisterTools(registry: ToolRegistry, namespace: string): void {
    this.#tools.unregister(registry, namespace);
  }

  /**
   * Calls `listener` after each refresh caused by the server's tools/list_changed notification,
   * with what was added, removed and changed. Returns the unsubscribe function.
   */
  onToolsChanged(listener: ToolsChangedListener): () => void {
    return this.#tools.addListener(listener);
  }

  // ---------------------------------------------------------------- resources, prompts, logs

  /** Every resource the server lists (all pages); [] when it declares no resources. MCPDiscoveryError when listing fails. */
  async listResources(): Promise<MCPResource[]> {
    return [...(await this.#features.resources.list(this.#requireSession("list resources")))];
  }

  /** Every resource template the server lists (all pages); [] when it declares no resources. */
  async listResourceTemplates(): Promise<MCPResourceTemplate[]> {
    return [...(await this.#features.resources.listTemplates(this.#requireSession("list resource templates")))];
  }

  /** Reads a resource (text or base64 blob); failures are results, `maxResultBytes` applies. */
  readResource(uri: string, options: MCPRequestOptions = {}): Promise<MCPRequestResult<MCPResourceContents>> {
    return this.#features.resources.read(this.#requireSession(`read resource "${uri}"`), uri, options);
  }

  /** Subscribes to a resource's updates; the result holds the subscription (with `unsubscribe`). */
  subscribeResource(
    uri: string,
    listener: ResourceUpdatedListener,
    options: MCPRequestOptions = {},
  ): Promise<MCPRequestResult<MCPResourceSubscription>> {
    assertFunction(listener, "subscribeResource", "listener");
    return this.#features.resources.subscribe(
      this.#requireSession(`subscribe to resource "${uri}"`),
      uri,
      listener,
      options,
    );
  }

  /** Calls `listener` after the server's resource list changed and was listed again; returns the unsubscribe function. */
  onResourcesChanged(listener: ResourcesChangedListener): () => void {
    assertFunction(listener, "onResourcesChanged", "listener");
    return this.#features.resources.addChangeListener(listener);
  }

  /** Every prompt the server lists (all pages); [] when it declares no prompts. MCPDiscoveryError when listing fails. */
  async listPrompts(): Promise<MCPPrompt[]> {
    return [...(await this.#features.prompts.list(this.#requireSession("list prompts")))];
  }

  /** Gets a prompt's messages; `args` are checked against its declared arguments before sending. */
  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: MCPRequestOptions = {},
  ): Promise<MCPRequestResult<MCPPromptMessages>> {
    return this.#features.prompts.get(this.#requireSession(`get prompt "${name}"`), name, args, options);
  }

  /** Calls `listener` after the server's prompt list changed and was listed again; returns the unsubscribe function. */
  onPromptsChanged(listener: PromptsChangedListener): () => void {
    assertFunction(listener, "onPromptsChanged", "listener");
    return this.#features.prompts.addChangeListener(listener);
  }

  /** Suggested values for a prompt argument (`ref/prompt`) or a resource-template variable (`ref/resource`). */
  complete(
    reference: MCPCompletionReference,
    argument: { name: string; value: string },
    options: MCPCompleteOptions = {},
  ): Promise<MCPRequestResult<MCPCompletion>> {
    return this.#features.prompts.complete(this.#requireSession("request a completion"), reference, argument, options);
  }

  /** Sends `logging/setLevel` now (the `logLevel` option sends it on every connect). */
  setLogLevel(level: MCPLogLevel, options: MCPRequestOptions = {}): Promise<MCPRequestResult<null>> {
    return this.#features.logs.setLevel(this.#requireSession(`set the log level to "${level}"`), level, options);
  }

  /** Calls `listener` with every log message of the server (rate-limited); returns the unsubscribe function. */
  onLog(listener: ServerLogListener): () => void {
    assertFunction(listener, "onLog", "listener");
    return this.#features.logs.addListener(listener);
  }

  /** The roots the server is told it may work in. */
  get roots(): readonly MCPRoot[] {
    return this.#clientFeatures.roots;
  }

  /** Replaces the roots and sends `notifications/roots/list_changed`; MCPConfigError for a root that is not a file:// URI. */
  setRoots(roots: readonly MCPRoot[]): Promise<void> {
    return this.#clientFeatures.setRoots(roots);
  }

  // ---------------------------------------------------------------- invocation

  /**
   * Calls a tool. Throws MCPNotConnectedError when not connected; every other failure is a
   * result with `success: false`, an `error` message and an `errorKind`.
   */
  invoke(name: string, args: Record<string, unknown> = {}, options: InvokeOptions = {}): Promise<MCPToolResult> {
    const start = this.#now();
    const instrumentation = this.#instrumentation;
    if (instrumentation?.observed === true) return this.#invokeTraced(name, args, options, start, instrumentation);
    // Not async: the plain call hands back the promise of the request itself, without the extra
    // promises and microtask turns an async wrapper adds to every call.
    try {
      return this.#invokeRecovering(name, args, options, start, undefined);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(describeCause(error)));
    }
  }

  async #invokeTraced(
    name: string,
    args: Record<string, unknown>,
    options: InvokeOptions,
    start: number,
    instrumentation: Instrumentation,
  ): Promise<MCPToolResult> {
    // Not connected (and no recovery to wait for) throws before a span starts.
    if (this.#recoveryPolicy === undefined) this.#requireSession(`invoke tool "${name}"`);
    const loading = instrumentation.ready();
    if (loading !== undefined) await loading;
    const traced = instrumentation.start("tools/call", name, this.#session?.connection.sessionId);
    let result: MCPToolResult | undefined;
    try {
      result = await this.#invokeRecovering(name, args, options, start, traced);
      return result;
    } finally {
      const failedWith =
        result === undefined
          ? { errorType: "_OTHER", message: "invoke threw" }
          : result.success
            ? undefined
            : { errorType: result.errorKind ?? "_OTHER", message: result.error ?? "" };
      if (traced !== undefined) instrumentation.end(traced, result?.durationMs ?? this.#now() - start, failedWith);
    }
  }

  /** The call, sent again after a recovery when recovery is on and the call is safe to repeat. */
  #invokeRecovering(
    name: string,
    args: Record<string, unknown>,
    options: InvokeOptions,
    start: number,
    traced: TracedOperation | undefined,
  ): Promise<MCPToolResult> {
    const policy = this.#recoveryPolicy;
    const action = `invoke tool "${name}"`;
    if (policy === undefined) return this.#invokeOn(this.#requireSession(action), name, args, options, start, traced);
    return invokeWithRecovery({
      name,
      start,
      options,
      timeoutMs: clampTimer(positiveOr(options.timeoutMs, this.#defaultTimeoutMs)),
      maxRetries: policy.maxCallRetries,
      outcome: this.#outcome,
      waitForSession: (timeoutMs, signal) => this.#supervisor.waitForSession(timeoutMs, signal),
      notConnected: () => {
        throw this.#notConnected(action);
      },
      attempt: (attemptOptions, attempt) =>
        this.#invokeOn(this.#requireSession(action), name, args, attemptOptions, start, traced, attempt),
    });
  }

  /**
   * One call on `session`, through the interceptors; `attempt` (under recovery) learns whether the
   * request went out.
   */
  #invokeOn(
    session: Session,
    name: string,
    args: Record<string, unknown>,
    options: InvokeOptions,
    start: number,
    traced: TracedOperation | undefined,
    attempt?: CallAttempt,
  ): Promise<MCPToolResult> {
    const cachedOrPending = this.#tools.catalogFor(session);
    if (cachedOrPending instanceof ToolCatalog)
      return this.#invokeIn(cachedOrPending, session, name, args, options, start, traced, attempt);
    return cachedOrPending.then(
      (catalog) => this.#invokeIn(catalog, session, name, args, options, start, traced, attempt),
      (error: unknown) => {
        const lost = session.state !== "open";
        return failure(
          this.#outcome,
          start,
          lost ? "connection_lost" : "server_error",
          `${lost ? "connection lost" : "server error"}: could not list the tools of MCP server "${this.serverName}" to find "${name}": ${describeCause(error)}`,
        );
      },
    );
  }

  /** The call once the session's tools are known: `name` looked up, its arguments checked, then sent. */
  #invokeIn(
    catalog: ToolCatalog,
    session: Session,
    name: string,
    args: Record<string, unknown>,
    options: InvokeOptions,
    start: number,
    traced: TracedOperation | undefined,
    attempt: CallAttempt | undefined,
  ): Promise<MCPToolResult> {
    const entry = catalog.get(name);
    if (entry === undefined) {
      const withheld = this.#pins?.withheld(name);
      if (withheld !== undefined)
        return Promise.resolve(failure(this.#outcome, start, "refused", `refused: ${withheld.message}`));
      return Promise.resolve(
        failure(
          this.#outcome,
          start,
          "not_found",
          `Tool "${name}" not found on MCP server "${this.serverName}"${catalog.filter.source === undefined ? "" : " (or excluded by the tool filter)"}; call discoverTools() to see the available tools.`,
        ),
      );
    }
    const given: unknown = args; // JavaScript callers may pass anything
    if (typeof given !== "object" || given === null || Array.isArray(given)) {
      return Promise.resolve(
        failure(
          this.#outcome,
          start,
          "validation",
          `validation failed: arguments for tool "${name}" must be an object`,
        ),
      );
    }
    if (attempt !== undefined) attempt.capability = entry.capability(this.#capabilityOverrides);
    if (this.#interceptors.isEmpty) return this.#send(session, entry, args, undefined, options, start, traced, attempt);
    return this.#intercepted(session, entry, name, args, options, start, traced, attempt);
  }

  /** The call through the interceptors' before and after steps. */
  async #intercepted(
    session: Session,
    entry: CatalogEntry,
    name: string,
    args: Record<string, unknown>,
    options: InvokeOptions,
    start: number,
    traced: TracedOperation | undefined,
    attempt: CallAttempt | undefined,
  ): Promise<MCPToolResult> {
    const { decidedBy: _decidedBy, ...capabilities } = entry.capability(this.#capabilityOverrides);
    const before = await this.#interceptors.before(
      { serverName: this.serverName, toolName: name, tool: entry.descriptor, capabilities, arguments: args, meta: {} },
      options.signal,
    );
    const result = before.go
      ? await this.#send(session, entry, before.call.arguments, before.call.meta, options, start, traced, attempt)
      : failure(this.#outcome, start, before.errorKind, before.error);
    return this.#interceptors.after(before.call, result, options.signal, (errorKind, error, base) =>
      failure(this.#outcome, start, errorKind, error, base?.data ?? null),
    );
  }

  /** Validates the arguments, sends tools/call (with `_meta` when there is any) and builds the result. */
  async #send(
    session: Session,
    entry: CatalogEntry,
    args: Readonly<Record<string, unknown>>,
    meta: Readonly<Record<string, unknown>> | undefined,
    options: InvokeOptions,
    start: number,
    traced: TracedOperation | undefined,
    attempt: CallAttempt | undefined,
  ): Promise<MCPToolResult> {
    const { name } = entry.descriptor;
    const cleaned = omitNullOptionals(entry.descriptor.inputSchema, args); // the arguments checked are the ones sent
    const invalid = entry.checkInput(cleaned, this.#validator);
    if (invalid !== undefined) return failure(this.#outcome, start, "validation", invalid);
    const { signal } = options;
    if (signal?.aborted === true) {
      return failure(
        this.#outcome,
        start,
        "cancelled",
        `cancelled: the call to tool "${name}" was aborted before it was sent${reasonSuffix(signal.reason)}`,
      );
    }
    const timeoutMs = clampTimer(positiveOr(options.timeoutMs, this.#defaultTimeoutMs));
    const requestOptions: RequestOptions = { timeout: timeoutMs };
    if (options.resetTimeoutOnProgress === true) {
      requestOptions.resetTimeoutOnProgress = true;
      if (options.maxTotalTimeoutMs !== undefined)
        requestOptions.maxTotalTimeout = clampTimer(positiveOr(options.maxTotalTimeoutMs, timeoutMs));
    }
    const { onProgress } = options;
    if (onProgress !== undefined) {
      requestOptions.onprogress = (progress) => {
        try {
          onProgress(progress);
        } catch (error) {
          this.#logger?.warn?.(`An onProgress callback for tool "${name}" threw: ${describeCause(error)}`, { error });
        }
      };
    }

    let raw: unknown;
    if (attempt !== undefined) attempt.sent = true;
    try {
      const params = this.#callParams(name, cleaned, meta, traced);
      raw = entry.requiresTask
        ? await this.#callAsTask(session, params, requestOptions, signal)
        : await this.#request(session, { method: "tools/call", params }, requestOptions, signal);
    } catch (error) {
      if (attempt !== undefined) {
        if (neverReachedServer(error, session.connection)) attempt.sent = false;
        attempt.sessionExpired = isSessionExpired(error, session.connection);
      }
      return callFailure(this.#outcome, start, name, error, signal, timeoutMs, requestOptions.maxTotalTimeout);
    }
    return callResult(this.#outcome, start, name, raw, entry);
  }

  /** tools/call params; `_meta` carries the interceptors' fields and the trace context, when there are any. */
  #callParams(
    name: string,
    args: Readonly<Record<string, unknown>>,
    meta: Readonly<Record<string, unknown>> | undefined,
    traced: TracedOperation | undefined,
  ): ToolCallParams {
    let sent: Record<string, unknown> | undefined =
      meta === undefined || Object.keys(meta).length === 0 ? undefined : { ...meta };
    if (traced !== undefined) {
      const carrier = sent ?? {};
      if (this.#instrumentation?.inject(traced, carrier) === true) sent = carrier;
    }
    return sent === undefined ? { name, arguments: args } : { name, arguments: args, _meta: sent };
  }

  /** A request with its client span and duration (tools/list). */
  async #tracedRequest(session: Session, request: MCPEngineMessage): Promise<unknown> {
    const instrumentation = this.#instrumentation;
    if (instrumentation?.observed !== true) return this.#request(session, request, {});
    const loading = instrumentation.ready();
    if (loading !== undefined) await loading;
    const started = this.#now();
    const traced = instrumentation.start(request.method, undefined, session.connection.sessionId);
    if (traced === undefined) return this.#request(session, request, {});
    try {
      const result = await this.#request(session, request, {});
      instrumentation.end(traced, this.#now() - started);
      return result;
    } catch (error) {
      instrumentation.end(traced, this.#now() - started, {
        errorType: session.state === "open" ? "server_error" : "connection_lost",
        message: describeCause(error),
      });
      throw error;
    }
  }

  /**
   * Calls a tool that must run as an MCP task: tools/call with `task` creates it, then
   * tasks/result waits (the server blocks it) for the final CallToolResult, and carries the
   * requests the task makes meanwhile (an elicitation, a sampling request) to our handlers. Both
   * steps share the call's timeout. A call given up on (timeout, abort) cancels the task, so the
   * server stops working for nobody.
   */
  async #callAsTask(
    session: Session,
    params: ToolCallParams,
    options: RequestOptions,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const { name } = params;
    const started = this.#now();
    const created = await this.#request(
      session,
      { method: "tools/call", params: { ...params, task: {} } },
      options,
      signal,
    );
    const taskId = createdTaskId(created);
    // A server that ran the call at once answers with the result itself.
    if (taskId === undefined) return created;
    const elapsed = this.#now() - started;
    const timeout = Math.max(1, (options.timeout ?? this.#defaultTimeoutMs) - elapsed);
    try {
      return await this.#request(
        session,
        { method: "tasks/result", params: { taskId } },
        { ...options, timeout },
        signal,
      );
    } catch (error) {
      if (session.state === "open") {
        session.connection.request({ method: "tasks/cancel", params: { taskId } }).catch((cancelError: unknown) => {
          this.#logger?.debug?.(`Could not cancel task "${taskId}" of tool "${name}": ${describeCause(cancelError)}`);
        });
      }
      throw error;
    }
  }

  /**
   * Sends one request on `session`. It must settle when the session is dropped, even if the
   * transport never reports the close, and leave no listener behind on the caller's signal. An
   * engine with `abandonRequests` does both itself, so the request goes to it as is. Otherwise
   * (SDK-backed engines) a wrapper promise does it; its AbortController is made only when the
   * caller gave a signal: in Node it costs more than the rest of a call, and the SDK's own
   * timeout already tells the server to cancel.
   */
  #request(
    session: Session,
    request: MCPEngineMessage,
    options: RequestOptions,
    callerSignal?: AbortSignal,
  ): Promise<unknown> {
    if (session.state !== "open")
      return Promise.reject(new ConnectionLost("the connection was already closed", undefined, true));
    const { connection } = session;
    // The engine settles its own requests when the session is dropped, and unhooks the signal.
    if (connection.abandonRequests !== undefined) {
      const sent = connection.request(
        request,
        callerSignal === undefined ? options : { ...options, signal: callerSignal },
      );
      return sent.catch((error: unknown) => {
        throw this.#requestFailed(session, error);
      });
    }
    return new Promise<unknown>((resolve, reject) => {
      let controller: AbortController | undefined;
      let onCallerAbort: (() => void) | undefined;
      if (callerSignal !== undefined) {
        const linked = new AbortController();
        controller = linked;
        onCallerAbort = () => {
          linked.abort(callerSignal.reason);
        };
        callerSignal.addEventListener("abort", onCallerAbort, { once: true });
      }
      const pending: PendingRequest = {
        close(why) {
          done();
          // Aborting tells the server to cancel (the transport is still open at this point).
          controller?.abort(new Error(`connection closed: ${why}`));
          reject(new ConnectionLost(why, undefined));
        },
      };
      const done = (): void => {
        session.pending.delete(pending);
        if (onCallerAbort !== undefined) callerSignal?.removeEventListener("abort", onCallerAbort);
      };
      session.pending.add(pending);
      session.connection
        .request(request, controller === undefined ? options : { ...options, signal: controller.signal })
        .then(
          (value) => {
            done();
            resolve(value);
          },
          (error: unknown) => {
            done();
            reject(this.#requestFailed(session, error));
          },
        );
    });
  }

  /** A request on `session` failed: drops the session when the failure says it is gone; returns the error to throw. */
  #requestFailed(session: Session, error: unknown): Error {
    // A send to a dead server fails before the transport reports the close: stop using it now.
    if (isConnectionGone(error))
      this.#onConnectionDropped(session, `the transport failed: ${describeTransportFailure(error)}`);
    // The spec: a 404 for our session id means the session is gone; start a new one.
    else if (this.#recoveryPolicy !== undefined && isSessionExpired(error, session.connection))
      this.#onConnectionDropped(session, "the server no longer knows the session (HTTP 404)", true);
    return error instanceof Error ? error : new Error(describeCause(error));
  }
}

/** Waits for `promise` to settle, at most `ms`; never rejects. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  try {
    await withTimeout(promise, ms, "connect");
  } catch {
    // Only waiting for the engine to clean up; its failure is already being reported.
  }
}

function assertFunction(value: unknown, method: string, parameter: string): void {
  if (typeof value !== "function") {
    throw new MCPUsageError(
      `${method}() needs a function as its ${parameter}; got ${value === null ? "null" : typeof value}.`,
    );
  }
}

/** What tools/call sends: `_meta` only when an interceptor or the trace context put something in it. */
type ToolCallParams = {
  name: string;
  arguments: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};
