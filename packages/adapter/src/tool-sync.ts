import type { ToolRegistry } from "@mcp-tool-adapter/registry";
import type { NotificationRoutes } from "./connection/notification-routes.js";
import type { ServerConnection, SessionHooks } from "./connection/connection.js";
import { recordingHints, type ToolListCache } from "./cache/tool-list-cache.js";
import { describeCause, MCPNotConnectedError } from "./errors.js";
import { buildFeatureTools, type FeatureToolsContext } from "./feature-tools.js";
import { CoalescedTask } from "./list-cache.js";
import type { PinGate, ToolPinFinding } from "./pinning/pin-gate.js";
import { forEachPage, listAllPages, type ListPagesContext, type PagedList } from "./list-pages.js";
import { buildToolDefinitions, type Registration } from "./registration.js";
import type { Session } from "./session.js";
import { mergedOverrides } from "./tool-capabilities.js";
import { CatalogEntriesBuilder, ToolCatalog } from "./tool-catalog.js";
import { compileToolFilter, type CompiledToolFilter } from "./tool-filter.js";
import type {
  CapabilityOverridesByTool,
  InvokeOptions,
  Logger,
  MCPToolDescriptor,
  MCPToolFilter,
  MCPToolResult,
  RegisterToolsOptions,
  RegistrationReport,
  ToolsChangedEvent,
  ToolsChangedListener,
} from "./types.js";

/** What tool synchronisation needs from the adapter that owns the connection. */
export interface ToolSyncContext extends Omit<ListPagesContext, "request"> {
  readonly logger: Logger | undefined;
  /** The live session (a replaced session stops refreshing), and tools/list with its span. */
  readonly connection: Pick<ServerConnection, "session" | "tracedRequest">;
  /** What registered tools call: the adapter's invoke, and what the opt-in resource and prompt tools need. */
  readonly adapter: FeatureToolsContext & {
    invoke(name: string, args: Record<string, unknown>, options: InvokeOptions): Promise<MCPToolResult>;
  };
  /** The adapter's capability corrections by tool name; a registration's own overrides win over them. */
  readonly capabilityOverrides: CapabilityOverridesByTool | undefined;
  /** Tool pinning: withholds listed tools that drifted from the lock, on every discovery and refresh. */
  readonly pins: PinGate | undefined;
  /** Tool listings kept across processes (the `toolListCache` option). */
  readonly listingCache?: ToolListCache | undefined;
}

const EMPTY_TOOLS: readonly MCPToolDescriptor[] = Object.freeze([]);
const TOOLS_LIST: PagedList = {
  method: "tools/list",
  field: "tools",
  subject: "Tool discovery",
  activity: "tool discovery",
  items: "tools",
};

/**
 * Keeps the adapter's view of the server's tools current: discovery (following pagination), the
 * cached catalog per session, refreshes on `notifications/tools/list_changed`, and the registry
 * namespaces filled again after each refresh.
 */
export class ToolSync implements SessionHooks {
  readonly #context: ToolSyncContext;
  /**
   * The catalog of the last discovery and the session that listed it (open or not). A plain field
   * that only this class writes, not a getter: every tool call reads it first.
   */
  listed: { readonly session: Session; readonly catalog: ToolCatalog } | undefined;
  /** The discovery running on a session, shared by concurrent callers. */
  #discovery: { session: Session; promise: Promise<ToolCatalog> } | undefined;
  /** The list_changed refreshes of a session: one at a time, and once more when asked meanwhile. */
  #refresh: { session: Session; task: CoalescedTask } | undefined;
  /** The catalog when the last session opened: what a recovery tells the listeners the change is from. */
  #beforeOpen: ToolCatalog | undefined;
  /**
   * The last catalog listed, kept across a session change (unlike `listed`): the next discovery,
   * on this session or after a recovery on a new one, keeps the entries of the tools that did not
   * change. Only reconnect() forgets it, to start afresh.
   */
  #lastListed: ToolCatalog | undefined;
  #filter: CompiledToolFilter = compileToolFilter(undefined);
  readonly #registrations = new Map<ToolRegistry, Map<string, RegisterToolsOptions>>();
  /** The cache-bypassing listing running on a session (see relist), shared by concurrent callers. */
  #relisting: { session: Session; promise: Promise<ToolCatalog> } | undefined;
  readonly #listeners = new Set<ToolsChangedListener>();

  /** tools/list pages go through the connection's traced request (a client span per page). */
  readonly #listing: ListPagesContext;

  constructor(context: ToolSyncContext) {
    this.#context = context;
    const { serverName, redactor, maxListPages, connection } = context;
    this.#listing = { serverName, redactor, maxListPages, request: connection.tracedRequest };
  }

  /** The tools of the last discovery (filtered), frozen; empty before discovery and after reconnect. */
  get tools(): readonly MCPToolDescriptor[] {
    return this.listed?.catalog.tools ?? EMPTY_TOOLS;
  }

  /** With pinning: the tools of the last discovery that did not match the lock, and what was done. */
  get pinFindings(): readonly ToolPinFinding[] {
    return this.#context.pins?.findings ?? [];
  }

  /** With pinning: the finding that withheld `name` in the last discovery, if any. */
  withheld(name: string): ToolPinFinding | undefined {
    return this.#context.pins?.withheld(name);
  }

  /** The catalog of the last discovery, whatever session listed it. */
  get catalog(): ToolCatalog | undefined {
    return this.listed?.catalog;
  }

  /** Registers tools/list_changed into the connection's routing table. */
  followNotifications(routes: NotificationRoutes): void {
    routes.on("notifications/tools/list_changed", (_params, session) => {
      if (session !== undefined) this.listChanged(session);
    });
  }

  /**
   * A recovery's new session replaced one that dropped: list the tools on it (same filter) and
   * replace every registered namespace at once, telling listeners what changed since then.
   */
  async recovered(session: Session): Promise<void> {
    const previous = this.#beforeOpen;
    if (previous === undefined && this.#registrations.size === 0 && this.#listeners.size === 0) return;
    try {
      this.#publish(await this.catalogFor(session), previous);
    } catch (error) {
      this.#context.logger?.warn?.(
        `MCP server "${this.#context.serverName}" is back, but listing its tools again failed: ${describeCause(error)}`,
        { error },
      );
    }
  }

  /** reconnect() starts from a fresh discovery. */
  reconnecting(): void {
    this.clear();
  }

  /** Forgets the cached tools (reconnect starts from a fresh discovery). */
  clear(): void {
    this.listed = undefined;
    this.#lastListed = undefined;
  }

  /** A new session is live: a catalog listed on another session no longer applies. */
  opened(session: Session): void {
    this.#beforeOpen = this.listed?.catalog;
    if (this.listed !== undefined && this.listed.session !== session) this.listed = undefined;
  }

  // ---------------------------------------------------------------- discovery

  /** Lists every tool, keeps the ones `filter` allows (and keeps that filter for later refreshes). */
  async discover(session: Session, filter?: MCPToolFilter): Promise<ToolCatalog> {
    const compiled = compileToolFilter(filter);
    this.#filter = compiled;
    return this.#discover(session, compiled);
  }

  /** The catalog of this session, discovering once (shared by concurrent callers) when there is none. */
  catalogFor(session: Session): Promise<ToolCatalog> | ToolCatalog {
    if (this.listed?.session === session) return this.listed.catalog;
    if (this.#discovery?.session === session) return this.#discovery.promise;
    const discovery = { session, promise: this.#discover(session, this.#filter) };
    this.#discovery = discovery;
    const forget = (): void => {
      if (this.#discovery === discovery) this.#discovery = undefined;
    };
    discovery.promise.then(forget, forget);
    return discovery.promise;
  }

  async #discover(session: Session, filter: CompiledToolFilter): Promise<ToolCatalog> {
    const { logger, serverName } = this.#context;
    const builder = new CatalogEntriesBuilder(this.#lastListed);
    const fromCache = await this.#listTools(session, (page, owned) => builder.addPage(page, { serverName, owned }));
    const entries = builder.finish(logger);
    const { pins } = this.#context;
    if (pins !== undefined) {
      const exposed: MCPToolDescriptor[] = [];
      for (const [name, entry] of entries) if (filter.matches(name)) exposed.push(entry.descriptor);
      const withheld = await pins.check(exposed);
      for (const name of withheld) entries.delete(name);
    }
    const catalog = new ToolCatalog(entries, filter, fromCache);
    if (session.state !== "open") throw this.#closedDuring(session, "tool discovery");
    this.listed = { session, catalog };
    this.#lastListed = catalog;
    return catalog;
  }

  /**
   * tools/list on the server page by page, or the listing a valid cross-process cache entry holds
   * (one page: the cache keeps whole listings). Resolves to whether it came from the cache.
   */
  async #listTools(session: Session, onPage: (tools: readonly unknown[], owned: boolean) => void): Promise<boolean> {
    const cache = this.#context.listingCache;
    if (cache === undefined) {
      await forEachPage(this.#listing, session, TOOLS_LIST, onPage);
      return false;
    }
    const { tools, fromCache } = await cache.list(session, (hints) =>
      listAllPages(recordingHints(this.#listing, hints), session, TOOLS_LIST),
    );
    onPage(tools, false);
    return fromCache;
  }

  /**
   * Lists the tools on the server, bypassing the cross-process cache (and refreshing its entry), and
   * fills the registered namespaces as a list_changed refresh does: for a call naming a tool that a
   * cached listing lacks, or that the server says it does not know. Shared by concurrent callers.
   */
  relist(session: Session): Promise<ToolCatalog> {
    if (this.#relisting?.session === session) return this.#relisting.promise;
    this.#context.listingCache?.bypassNext(session);
    const previous = this.listed?.catalog;
    const relisting = {
      session,
      promise: this.#discover(session, this.#filter).then((catalog) => {
        this.#publish(catalog, previous);
        return catalog;
      }),
    };
    this.#relisting = relisting;
    const forget = (): void => {
      if (this.#relisting === relisting) this.#relisting = undefined;
    };
    relisting.promise.then(forget, forget);
    return relisting.promise;
  }

  #closedDuring(session: Session, what: string, cause?: unknown): MCPNotConnectedError {
    const { serverName, redactor } = this.#context;
    return new MCPNotConnectedError(
      `Cannot finish ${what}: not connected to MCP server "${serverName}" any more (the connection closed during it). Call reconnect() and try again.`,
      { serverName, cause: redactor.value(cause) },
    );
  }

  // ---------------------------------------------------------------- tool-list changes

  /** Adds a listener called after each refresh; returns the unsubscribe function. */
  addListener(listener: ToolsChangedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The server sent tools/list_changed on `session`. */
  listChanged(session: Session): void {
    if (!(this.#context.connection.session === session)) return;
    this.#context.listingCache?.invalidate(session);
    if (this.#refresh?.session !== session) {
      this.#refresh = { session, task: new CoalescedTask(() => this.#refreshOnce(session)) };
    }
    // A refresh running may have listed before this change: the task runs once more after it.
    this.#refresh.task.request();
  }

  async #refreshOnce(session: Session): Promise<void> {
    // A replaced session stops refreshing.
    if (!(this.#context.connection.session === session)) return;
    const previous = this.listed?.catalog;
    // Nothing discovered, registered or listening: the next discovery fetches fresh anyway.
    if (previous === undefined && this.#registrations.size === 0 && this.#listeners.size === 0) return;
    try {
      this.#publish(await this.#discover(session, this.#filter), previous);
    } catch (error) {
      this.#context.logger?.warn?.(
        `Refreshing the tools of MCP server "${this.#context.serverName}" after tools/list_changed failed: ${describeCause(error)}`,
        { error },
      );
    }
  }

  /** Fills every registered namespace with `catalog` and tells the listeners what changed since `previous`. */
  #publish(catalog: ToolCatalog, previous: ToolCatalog | undefined): void {
    const { serverName, logger } = this.#context;
    const diff = catalog.diffFrom(previous);
    const registrations: RegistrationReport[] = [];
    for (const [registry, namespaces] of this.#registrations) {
      for (const [namespace, options] of namespaces) {
        try {
          registrations.push(this.#register({ registry, namespace, options }, catalog));
        } catch (error) {
          logger?.warn?.(
            `Re-registering the tools of MCP server "${serverName}" in namespace "${namespace}" failed: ${describeCause(error)}`,
            { error },
          );
        }
      }
    }
    logger?.info?.(`MCP server "${serverName}" tools changed`, diff);
    const event: ToolsChangedEvent = { serverName, ...diff, tools: catalog.tools, registrations };
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        logger?.warn?.(`An onToolsChanged listener of MCP server "${serverName}" threw: ${describeCause(error)}`, {
          error,
        });
      }
    }
  }

  // ---------------------------------------------------------------- registration

  /**
   * Fills `namespace` with the tools, discovering first (through `session`) when nothing is
   * cached, and keeps it filled after later refreshes.
   */
  register(
    registry: ToolRegistry,
    namespace: string,
    given: RegisterToolsOptions,
    session: () => Session,
  ): Promise<RegistrationReport> {
    const overrides = mergedOverrides(this.#context.capabilityOverrides, given.overrides);
    return this.#registerOnce(registry, namespace, overrides === undefined ? given : { ...given, overrides }, session);
  }

  async #registerOnce(
    registry: ToolRegistry,
    namespace: string,
    options: RegisterToolsOptions,
    session: () => Session,
  ): Promise<RegistrationReport> {
    compileToolFilter(options.filter); // a malformed filter fails before anything changes
    const discovered = this.listed?.catalog ?? (await this.catalogFor(session()));
    // A list_changed refresh may have landed while discovering: register the newest catalog.
    const report = this.#register({ registry, namespace, options }, this.listed?.catalog ?? discovered);
    let namespaces = this.#registrations.get(registry);
    if (namespaces === undefined) {
      namespaces = new Map();
      this.#registrations.set(registry, namespaces);
    }
    namespaces.set(namespace, options);
    return report;
  }

  /** Removes the namespace from the registry and stops filling it. */
  unregister(registry: ToolRegistry, namespace: string): void {
    const namespaces = this.#registrations.get(registry);
    namespaces?.delete(namespace);
    if (namespaces?.size === 0) this.#registrations.delete(registry);
    registry.unregisterNamespace(namespace);
  }

  #register(registration: Registration, catalog: ToolCatalog): RegistrationReport {
    const { definitions, skipped, registeredNames } = buildToolDefinitions(registration, catalog.tools, {
      serverName: this.#context.serverName,
      invoke: (name, args, options) => this.#context.adapter.invoke(name, args, options),
    });
    if (registration.options.resourceAndPromptTools === true) {
      for (const tool of buildFeatureTools(this.#context.adapter)) {
        if (definitions.some((definition) => definition.name === tool.name)) {
          skipped.push({ name: tool.name, reason: "the server has a tool of this name, which is registered instead" });
          continue;
        }
        definitions.push(tool);
        registeredNames.push(`${registration.namespace}/${tool.name}`);
      }
    }
    const change = registration.registry.replaceNamespace(registration.namespace, definitions);
    return { namespace: registration.namespace, registered: registeredNames, skipped, change };
  }
}
