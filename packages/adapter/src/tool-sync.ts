import type { MCPEngineMessage } from "@mcp-tool-adapter/core";
import type { ToolDefinition, ToolRegistry } from "@mcp-tool-adapter/registry";
import { describeCause, MCPDiscoveryError, MCPNotConnectedError } from "./errors.js";
import type { Redactor } from "./redaction.js";
import { buildToolDefinitions, type Registration } from "./registration.js";
import { refreshRequested, type Session } from "./session.js";
import { buildEntries, ToolCatalog } from "./tool-catalog.js";
import { compileToolFilter, type CompiledToolFilter } from "./tool-filter.js";
import type {
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
export interface ToolSyncContext {
  readonly serverName: string;
  readonly logger: Logger | undefined;
  readonly redactor: Redactor;
  readonly maxListPages: number;
  /** Sends one request on the session, settled when the session closes. */
  request(session: Session, request: MCPEngineMessage): Promise<unknown>;
  /** Whether `session` is still the adapter's live one (a replaced session stops refreshing). */
  isCurrent(session: Session): boolean;
  /** What a registered tool's handler calls. */
  invoke(name: string, args: Record<string, unknown>, options: InvokeOptions): Promise<MCPToolResult>;
  /** The opt-in resource and prompt tools (RegisterToolsOptions.resourceAndPromptTools). */
  featureTools(): ToolDefinition[];
  /** Names of listed tools to withhold (tool pinning); runs on every discovery and refresh. */
  gate?(tools: readonly MCPToolDescriptor[]): Promise<ReadonlySet<string>>;
}

const EMPTY_TOOLS: readonly MCPToolDescriptor[] = Object.freeze([]);

/**
 * Keeps the adapter's view of the server's tools current: discovery (following pagination), the
 * cached catalog per session, refreshes on `notifications/tools/list_changed`, and the registry
 * namespaces filled again after each refresh.
 */
export class ToolSync {
  readonly #context: ToolSyncContext;
  #catalog: { session: Session; catalog: ToolCatalog } | undefined;
  /**
   * The last catalog listed, kept across a session change (unlike #catalog): the next discovery,
   * on this session or after a recovery on a new one, keeps the entries of the tools that did not
   * change. Only reconnect() forgets it, to start afresh.
   */
  #lastListed: ToolCatalog | undefined;
  #filter: CompiledToolFilter = compileToolFilter(undefined);
  readonly #registrations = new Map<ToolRegistry, Map<string, RegisterToolsOptions>>();
  readonly #listeners = new Set<ToolsChangedListener>();

  constructor(context: ToolSyncContext) {
    this.#context = context;
  }

  /** The tools of the last discovery (filtered), frozen; empty before discovery and after reconnect. */
  get tools(): readonly MCPToolDescriptor[] {
    return this.#catalog?.catalog.tools ?? EMPTY_TOOLS;
  }

  /** The catalog of the last discovery, whatever session listed it. */
  get catalog(): ToolCatalog | undefined {
    return this.#catalog?.catalog;
  }

  /**
   * A new session replaced one that dropped: list the tools on it (same filter) and replace every
   * registered namespace at once, telling listeners what changed since `previous`.
   */
  async resync(session: Session, previous: ToolCatalog | undefined): Promise<void> {
    if (previous === undefined && this.#registrations.size === 0 && this.#listeners.size === 0) return;
    this.#publish(await this.catalogFor(session), previous);
  }

  /** Forgets the cached tools (reconnect starts from a fresh discovery). */
  clear(): void {
    this.#catalog = undefined;
    this.#lastListed = undefined;
  }

  /** A new session is live: a catalog listed on another session no longer applies. */
  sessionOpened(session: Session): void {
    if (this.#catalog !== undefined && this.#catalog.session !== session) this.#catalog = undefined;
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
    if (this.#catalog?.session === session) return this.#catalog.catalog;
    session.discovery ??= this.#discover(session, this.#filter).finally(() => {
      session.discovery = undefined;
    });
    return session.discovery;
  }

  async #discover(session: Session, filter: CompiledToolFilter): Promise<ToolCatalog> {
    const rawTools = await this.#listAllTools(session);
    const previous = this.#lastListed;
    const { logger, serverName } = this.#context;
    let entries = buildEntries(rawTools, previous, logger, serverName);
    if (this.#context.gate !== undefined) {
      const exposed = entries.filter((entry) => filter.matches(entry.descriptor.name)).map((entry) => entry.descriptor);
      const withheld = await this.#context.gate(exposed);
      if (withheld.size > 0) entries = entries.filter((entry) => !withheld.has(entry.descriptor.name));
    }
    const catalog = new ToolCatalog(entries, filter);
    if (session.state !== "open") throw this.#closedDuring(session, "tool discovery");
    this.#catalog = { session, catalog };
    this.#lastListed = catalog;
    return catalog;
  }

  async #listAllTools(session: Session): Promise<unknown[]> {
    const { serverName, maxListPages, redactor } = this.#context;
    const tools: unknown[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1; ; page += 1) {
      if (page > maxListPages) {
        throw new MCPDiscoveryError(
          `Tool discovery on MCP server "${serverName}" stopped after ${maxListPages} pages of tools/list; the server keeps paginating. Raise maxListPages if it really has that many tools.`,
          { serverName },
        );
      }
      let result: unknown;
      try {
        result = await this.#context.request(session, {
          method: "tools/list",
          ...(cursor === undefined ? {} : { params: { cursor } }),
        });
      } catch (error) {
        if (session.state !== "open") throw this.#closedDuring(session, "tool discovery", error);
        throw new MCPDiscoveryError(
          redactor.text(
            `Tool discovery on MCP server "${serverName}" failed: tools/list returned an error: ${describeCause(error)}`,
          ),
          {
            serverName,
            cause: redactor.value(error),
          },
        );
      }
      const listed = (result as { tools?: unknown } | null)?.tools;
      if (!Array.isArray(listed)) {
        throw new MCPDiscoveryError(
          `Tool discovery on MCP server "${serverName}" failed: the tools/list result has no "tools" list.`,
          { serverName },
        );
      }
      tools.push(...(listed as unknown[]));
      const next = (result as { nextCursor?: unknown }).nextCursor;
      if (typeof next !== "string") return tools;
      if (seenCursors.has(next)) {
        throw new MCPDiscoveryError(
          `Tool discovery on MCP server "${serverName}" failed: tools/list returned cursor "${next}" a second time, so pagination would never end.`,
          { serverName },
        );
      }
      seenCursors.add(next);
      cursor = next;
    }
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
    if (!this.#context.isCurrent(session)) return;
    if (session.refresh !== undefined) {
      // A refresh is running and may have listed before this change: run once more after it.
      session.refreshAgain = true;
      return;
    }
    session.refresh = this.#refreshLoop(session);
  }

  async #refreshLoop(session: Session): Promise<void> {
    try {
      do {
        session.refreshAgain = false;
        try {
          await this.#refreshOnce(session);
        } catch (error) {
          this.#context.logger?.warn?.(
            `Refreshing the tools of MCP server "${this.#context.serverName}" after tools/list_changed failed: ${describeCause(error)}`,
            { error },
          );
        }
      } while (refreshRequested(session) && this.#context.isCurrent(session));
    } finally {
      session.refresh = undefined;
    }
  }

  async #refreshOnce(session: Session): Promise<void> {
    const previous = this.#catalog?.catalog;
    // Nothing discovered, registered or listening: the next discovery fetches fresh anyway.
    if (previous === undefined && this.#registrations.size === 0 && this.#listeners.size === 0) return;
    this.#publish(await this.#discover(session, this.#filter), previous);
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
  async register(
    registry: ToolRegistry,
    namespace: string,
    options: RegisterToolsOptions,
    session: () => Session,
  ): Promise<RegistrationReport> {
    compileToolFilter(options.filter); // a malformed filter fails before anything changes
    const discovered = this.#catalog?.catalog ?? (await this.catalogFor(session()));
    // A list_changed refresh may have landed while discovering: register the newest catalog.
    const report = this.#register({ registry, namespace, options }, this.#catalog?.catalog ?? discovered);
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
      invoke: (name, args, options) => this.#context.invoke(name, args, options),
    });
    if (registration.options.resourceAndPromptTools === true) {
      for (const tool of this.#context.featureTools()) {
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
