import type { Implementation, ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { MCPProtocolEra } from "@mcp-tool-adapter/core";
import {
  inferCapabilities,
  type CapabilityOverrides,
  type ToolCapability,
} from "@mcp-tool-adapter/capability-inference";
import type { ToolRegistry } from "@mcp-tool-adapter/registry";
import { adapterSettings } from "./adapter-settings.js";
import type { MCPToolAdapterOptions } from "./adapter-options.js";
import { validateServerConfig, type MCPServerConfig, type MCPTransportType } from "./config.js";
import { refuseConfigAuth } from "./config-auth.js";
import { connectionEngine, ServerConnection } from "./connection/connection.js";
import { assertFunction } from "./errors.js";
import { InterceptorChain } from "./interceptors/interceptor-chain.js";
import { PinGate, type ToolPinFinding } from "./pinning/pin-gate.js";
import { Instrumentation } from "./telemetry/instrumentation.js";
import { Redactor } from "./redaction.js";
import { ToolSync } from "./tool-sync.js";
import { toolListCache } from "./cache/create-tool-list-cache.js";
import { ToolCalls } from "./tools/tool-call.js";
import { ToolUiResources, type MCPToolUiResource, type ReadToolUiOptions } from "./tool-ui-resource.js";
import type {
  MCPCompleteOptions,
  MCPCompletion,
  MCPCompletionReference,
  MCPLogLevel,
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
import type { HealthChangeListener, MCPServerHealth } from "./recovery/health.js";
import { recoveryPolicy } from "./recovery/options.js";
import type { Session } from "./session.js";
import { ClientFeatures } from "./client-features/client-features.js";
import type { MCPRoot } from "./client-features/types.js";
import type {
  ConnectOptions,
  InvokeOptions,
  MCPToolDescriptor,
  MCPToolFilter,
  MCPToolResult,
  RegisterToolsOptions,
  RegistrationReport,
  ToolsChangedListener,
} from "./types.js";

/**
 * Connects one MCP server to an agent runtime: discovers its tools, validates arguments against
 * their input schemas, invokes them with deadlines and cancellation, and registers them in a
 * ToolRegistry. Lifecycle changes run one at a time; every other method may be called
 * concurrently. Only "not connected" (and bad config) throw; a failed call is a result.
 *
 * The facade: it builds the layers once and delegates to them (docs/architecture.md, "adapter").
 */
export class MCPToolAdapter {
  readonly serverName: string;
  readonly transportType: MCPTransportType;
  readonly config: Readonly<MCPServerConfig>;

  /** The session's lifecycle, the one request path, the notification routes, health and restarts. */
  readonly #connection: ServerConnection;
  /** Discovery, the tool cache, list-changed refreshes and registry namespaces. */
  readonly #tools: ToolSync;
  /** invoke(): lookup, validation, pinning, interceptors, recovery, telemetry, the request. */
  readonly #calls: ToolCalls;
  /** Resources, prompts, completions and the server's log messages. */
  readonly #features: ServerFeatures;
  /** MCP Apps: this server's UI resources, cached by URI until the server says they changed. */
  readonly #uiResources = new ToolUiResources(this, () => this.#features.resources);
  /** Elicitation, sampling and roots: what this client offers the server. */
  readonly #clientFeatures: ClientFeatures;

  constructor(config: MCPServerConfig, options: MCPToolAdapterOptions = {}) {
    const valid = validateServerConfig(config);
    refuseConfigAuth(valid);
    this.config = Object.freeze({ ...valid });
    this.serverName = valid.name;
    this.transportType = valid.transport;
    const settings = adapterSettings(options);
    const { validator, defaultTimeoutMs, abortedTaskWaitMs, maxListPages, maxResultBytes } = settings;
    const redactor = Redactor.forConfig(valid);
    const logger = redactor.logger(options.logger);
    // What every layer's context starts from.
    const base = { serverName: valid.name, logger, redactor, now: settings.now };
    const engine = connectionEngine(valid, options.engine, { ...settings, transport: options.transport });
    const interceptors = new InterceptorChain(options.interceptors);
    const pins = options.pinning === undefined ? undefined : new PinGate(options.pinning, valid.name, logger);
    const instrumentation =
      options.telemetry === false ? undefined : new Instrumentation(options.telemetry ?? {}, valid);
    const recovery = recoveryPolicy(options.recovery);
    const current = (): Session | undefined => this.#connection.session;
    this.#clientFeatures = new ClientFeatures({ ...base, validator, current }, options);
    const connection = new ServerConnection(
      { ...base, ...settings, config: this.config, engine, instrumentation, recovery, offers: this.#clientFeatures },
      options,
    );
    this.#connection = connection;
    // What the tool layers share on top of base.
    const toolBase = { ...base, connection, capabilityOverrides: options.capabilityOverrides };
    const listingCache = toolListCache(options, { ...base, config: valid });
    const tools = new ToolSync({ ...toolBase, maxListPages, adapter: this, pins, listingCache });
    this.#tools = tools;
    if (options.onToolsChanged !== undefined) tools.addListener(options.onToolsChanged);
    const request = connection.tracedRequest;
    this.#features = new ServerFeatures({ ...base, ...settings, request, current }, options);
    // Tools forget a replaced session's catalog before the features resend subscriptions and the log level.
    connection.attach(tools, this.#features);
    if (options.onHealthChange !== undefined) connection.supervisor.addListener(options.onHealthChange);
    const outcome = { ...base, maxResultBytes, validator };
    this.#calls = new ToolCalls({ ...toolBase, defaultTimeoutMs, abortedTaskWaitMs, outcome, interceptors, tools });
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
    return this.#connection.session !== undefined;
  }

  /** What the server declared in `initialize` (or `server/discover`); undefined while not connected. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#connection.session?.connection.serverCapabilities;
  }

  /** The server's name and version from `initialize` (or `server/discover`); undefined while not connected. */
  get serverInfo(): Implementation | undefined {
    return this.#connection.session?.connection.serverInfo;
  }

  /** The era the connection speaks: "2025" (the initialize handshake) or "2026-07-28"; undefined while not connected. */
  get protocolEra(): MCPProtocolEra | undefined {
    return this.#connection.session?.connection.era;
  }

  /** The negotiated protocol revision, e.g. "2025-11-25"; undefined while not connected. */
  get protocolVersion(): string | undefined {
    return this.#connection.session?.connection.protocolVersion;
  }

  /** Where the connection stands (connected, reconnecting, down, ...), frozen; see docs/recovery.md. */
  get health(): MCPServerHealth {
    return this.#connection.supervisor.health;
  }

  /** Calls `listener` on every change of `health`; returns the unsubscribe function. */
  onHealthChange(listener: HealthChangeListener): () => void {
    assertFunction(listener, "onHealthChange", "listener");
    return this.#connection.supervisor.addListener(listener);
  }

  /** The tools of the last discovery (filtered), frozen; empty before discovery and after reconnect. */
  get discoveredTools(): readonly MCPToolDescriptor[] {
    return this.#tools.tools;
  }

  /** With `pinning`: the tools of the last discovery that did not match the lock, and what was done. */
  get pinFindings(): readonly ToolPinFinding[] {
    return this.#tools.pinFindings;
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Starts the transport and performs the MCP handshake. Idempotent; concurrent calls share one
   * handshake. On failure or timeout throws MCPConnectionError and leaves nothing running.
   */
  connect(options: ConnectOptions = {}): Promise<void> {
    return this.#connection.connect(options.timeoutMs);
  }

  /**
   * Closes the connection. Safe when not connected; a transport that fails to close still ends
   * disconnected. Calls in flight settle with a "connection lost: connection closed" result.
   */
  disconnect(): Promise<void> {
    return this.#connection.disconnect();
  }

  /** Disconnects, clears the tool cache, connects again; MCPConnectionError when that fails. */
  reconnect(options: ConnectOptions = {}): Promise<void> {
    return this.#connection.reconnect(options.timeoutMs);
  }

  // ---------------------------------------------------------------- tools

  /**
   * Lists every tool (following pagination), keeps the ones `filter` allows, caches them and
   * returns them. Throws MCPNotConnectedError when not connected, MCPDiscoveryError when the
   * server's listing fails.
   */
  async discoverTools(filter?: MCPToolFilter): Promise<MCPToolDescriptor[]> {
    const session = this.#connection.require("discover tools");
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
    return this.#tools.register(registry, namespace, options, () =>
      this.#connection.require(`register tools in namespace "${namespace}"`),
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
    return [...(await this.#features.resources.list(this.#connection.require("list resources")))];
  }

  /** Every resource template the server lists (all pages); [] when it declares no resources. */
  async listResourceTemplates(): Promise<MCPResourceTemplate[]> {
    return [...(await this.#features.resources.listTemplates(this.#connection.require("list resource templates")))];
  }

  /** Reads a resource (text or base64 blob); failures are results, `maxResultBytes` applies. */
  readResource(uri: string, options: MCPRequestOptions = {}): Promise<MCPRequestResult<MCPResourceContents>> {
    return this.#features.resources.read(this.#connection.require(`read resource "${uri}"`), uri, options);
  }

  /** Subscribes to a resource's updates; the result holds the subscription (with `unsubscribe`). */
  subscribeResource(
    uri: string,
    listener: ResourceUpdatedListener,
    options: MCPRequestOptions = {},
  ): Promise<MCPRequestResult<MCPResourceSubscription>> {
    assertFunction(listener, "subscribeResource", "listener");
    const session = this.#connection.require(`subscribe to resource "${uri}"`);
    return this.#features.resources.subscribe(session, uri, listener, options);
  }

  /**
   * MCP Apps: a tool's HTML interface (its `_meta.ui.resourceUri`), with the CSP and permissions
   * the server declared. Read once per URI and cached until the server says it changed; `maxBytes` bounds it.
   * Failures are results: "not_found" for an unknown tool or one without a UI.
   */
  readToolUi(toolName: string, options: ReadToolUiOptions = {}): Promise<MCPRequestResult<MCPToolUiResource>> {
    const tool = this.discoveredTools.find((candidate) => candidate.name === toolName);
    return this.#uiResources.read(tool, options);
  }

  /** Calls `listener` after the server's resource list changed and was listed again; returns the unsubscribe function. */
  onResourcesChanged(listener: ResourcesChangedListener): () => void {
    assertFunction(listener, "onResourcesChanged", "listener");
    return this.#features.resources.addChangeListener(listener);
  }

  /** Every prompt the server lists (all pages); [] when it declares no prompts. MCPDiscoveryError when listing fails. */
  async listPrompts(): Promise<MCPPrompt[]> {
    return [...(await this.#features.prompts.list(this.#connection.require("list prompts")))];
  }

  /** Gets a prompt's messages; `args` are checked against its declared arguments before sending. */
  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: MCPRequestOptions = {},
  ): Promise<MCPRequestResult<MCPPromptMessages>> {
    return this.#features.prompts.get(this.#connection.require(`get prompt "${name}"`), name, args, options);
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
    return this.#features.prompts.complete(
      this.#connection.require("request a completion"),
      reference,
      argument,
      options,
    );
  }

  /** Sends `logging/setLevel` now (the `logLevel` option sends it on every connect). */
  setLogLevel(level: MCPLogLevel, options: MCPRequestOptions = {}): Promise<MCPRequestResult<null>> {
    return this.#features.logs.setLevel(this.#connection.require(`set the log level to "${level}"`), level, options);
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
  invoke(name: string, args: Record<string, unknown> = {}, options?: InvokeOptions): Promise<MCPToolResult> {
    return this.#calls.invoke(name, args, options);
  }
}
