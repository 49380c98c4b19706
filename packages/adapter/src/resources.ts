import { frozenSnapshot } from "@mcp-tool-adapter/registry";
import { describeCause } from "./errors.js";
import { CoalescedTask, ListCache } from "./list-cache.js";
import { listAllPages, type ListPagesContext } from "./list-pages.js";
import type {
  MCPRequestOptions,
  MCPRequestResult,
  MCPResource,
  MCPResourceContents,
  MCPResourceSubscription,
  MCPResourceTemplate,
  ResourcesChangedListener,
  ResourceUpdatedListener,
} from "./protocol-types.js";
import { requestFailure, runRequest, type RequestContext } from "./request-outcome.js";
import type { Session } from "./session.js";
import type { Logger } from "./types.js";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";

/** What resource handling needs from the adapter that owns the connection. */
export interface ResourceSyncContext extends ListPagesContext, RequestContext {
  readonly logger: Logger | undefined;
  /** The adapter's live session, if any (subscriptions are sent again on a new one). */
  current(): Session | undefined;
}

/**
 * The server's resources: listing (resources and templates, paginated and cached per session),
 * reading, subscriptions with update listeners (kept across reconnects), and refreshes on
 * `notifications/resources/list_changed`.
 */
export class ResourceSync {
  readonly #context: ResourceSyncContext;
  readonly #resources: ListCache<MCPResource>;
  readonly #templates: ListCache<MCPResourceTemplate>;
  readonly #changeListeners = new Set<ResourcesChangedListener>();
  /** Told, at once, that what a read returned may be out of date: one URI, or (undefined) every one. */
  readonly #staleListeners = new Set<(uri: string | undefined) => void>();
  /** URI -> its update listeners; the server is subscribed while a URI has any. */
  readonly #subscriptions = new Map<string, Set<ResourceUpdatedListener>>();
  readonly #refresh: CoalescedTask;

  constructor(context: ResourceSyncContext) {
    this.#context = context;
    this.#resources = new ListCache((session) =>
      this.#list<MCPResource>(session, "resources/list", "resources", "uri"),
    );
    this.#templates = new ListCache((session) =>
      this.#list<MCPResourceTemplate>(session, "resources/templates/list", "resourceTemplates", "uriTemplate"),
    );
    this.#refresh = new CoalescedTask(() => this.#refreshAndNotify());
  }

  /** Every resource the server lists ([] when it declares no resources capability). */
  list(session: Session): Promise<readonly MCPResource[]> {
    return this.#resources.refresh(session);
  }

  /** Every resource template the server lists ([] when it declares no resources capability). */
  listTemplates(session: Session): Promise<readonly MCPResourceTemplate[]> {
    return this.#templates.refresh(session);
  }

  async #list<T>(session: Session, method: string, field: string, key: string): Promise<readonly T[]> {
    if (session.connection.serverCapabilities?.resources === undefined) return Object.freeze([]);
    const raw = await listAllPages(this.#context, session, { method, field });
    const items = raw.filter((item) => {
      const usable = isRecord(item) && typeof item[key] === "string" && typeof item.name === "string";
      if (!usable)
        this.#context.logger?.warn?.(
          `MCP server "${this.#context.serverName}" listed an item in ${method} without a string "${key}" and "name"; it was skipped`,
          { item },
        );
      return usable;
    });
    return frozenSnapshot(items) as unknown as readonly T[];
  }

  /** Reads one resource: its text or base64 blob contents. */
  read(session: Session, uri: unknown, options: MCPRequestOptions): Promise<MCPRequestResult<MCPResourceContents>> {
    const start = this.#context.now();
    const invalid = checkUri(uri);
    if (invalid !== undefined)
      return Promise.resolve(
        requestFailure(this.#context, start, "validation", `validation failed: resources/read ${invalid}`),
      );
    const what = `resources/read of "${String(uri)}"`;
    if (session.connection.serverCapabilities?.resources === undefined)
      return Promise.resolve(this.#unsupported(start, what, "resources"));
    return runRequest(
      this.#context,
      session,
      {
        what,
        method: "resources/read",
        params: { uri },
        options,
        accept: acceptContents,
      },
      start,
    );
  }

  // ---------------------------------------------------------------- subscriptions

  /**
   * Calls `listener` whenever the server says `uri` changed. The first listener of a URI sends
   * `resources/subscribe`; the result says whether the server accepted.
   */
  async subscribe(
    session: Session,
    uri: unknown,
    listener: ResourceUpdatedListener,
    options: MCPRequestOptions,
  ): Promise<MCPRequestResult<MCPResourceSubscription>> {
    const start = this.#context.now();
    const invalid = checkUri(uri);
    if (invalid !== undefined)
      return requestFailure(this.#context, start, "validation", `validation failed: resources/subscribe ${invalid}`);
    const key = uri as string;
    const what = `resources/subscribe of "${key}"`;
    if (session.connection.serverCapabilities?.resources?.subscribe !== true)
      return this.#unsupported(start, what, "resources.subscribe");
    let listeners = this.#subscriptions.get(key);
    if (listeners === undefined) {
      const sent = await runRequest(
        this.#context,
        session,
        { what, method: "resources/subscribe", params: { uri: key }, options, accept: () => ({ data: null }) },
        start,
      );
      if (!sent.success) return sent;
      // A concurrent subscribe to the same URI may have finished first.
      listeners = this.#subscriptions.get(key) ?? new Set();
      this.#subscriptions.set(key, listeners);
    }
    listeners.add(listener);
    const subscription: MCPResourceSubscription = Object.freeze({
      uri: key,
      unsubscribe: () => this.#unsubscribe(key, listener),
    });
    return { success: true, data: subscription, error: null, durationMs: this.#context.now() - start };
  }

  async #unsubscribe(uri: string, listener: ResourceUpdatedListener): Promise<MCPRequestResult<null>> {
    const start = this.#context.now();
    const listeners = this.#subscriptions.get(uri);
    if (listeners?.delete(listener) !== true || listeners.size > 0)
      return { success: true, data: null, error: null, durationMs: this.#context.now() - start };
    this.#subscriptions.delete(uri);
    const session = this.#context.current();
    // Not connected: the server forgot the subscription with the session.
    if (session === undefined)
      return { success: true, data: null, error: null, durationMs: this.#context.now() - start };
    return runRequest(
      this.#context,
      session,
      {
        what: `resources/unsubscribe of "${uri}"`,
        method: "resources/unsubscribe",
        params: { uri },
        options: {},
        accept: () => ({ data: null }),
      },
      start,
    );
  }

  /** The server sent notifications/resources/updated. */
  updated(uri: unknown): void {
    if (typeof uri !== "string") return;
    for (const stale of this.#staleListeners) stale(uri);
    const listeners = this.#subscriptions.get(uri);
    if (listeners === undefined) return;
    const event = Object.freeze({ serverName: this.#context.serverName, uri });
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.#context.logger?.warn?.(
          `A resource update listener for "${uri}" of MCP server "${this.#context.serverName}" threw: ${describeCause(error)}`,
          { error },
        );
      }
    }
  }

  /** A new session is live: subscriptions made on the previous one are sent again. */
  sessionOpened(session: Session): void {
    if (this.#subscriptions.size === 0) return;
    if (session.connection.serverCapabilities?.resources?.subscribe !== true) {
      this.#context.logger?.warn?.(
        `MCP server "${this.#context.serverName}" no longer supports resource subscriptions; ${this.#subscriptions.size} subscription(s) will get no updates`,
      );
      return;
    }
    for (const uri of this.#subscriptions.keys()) {
      void runRequest(this.#context, session, {
        what: `resources/subscribe of "${uri}"`,
        method: "resources/subscribe",
        params: { uri },
        options: {},
        accept: () => ({ data: null }),
      }).then((result) => {
        if (!result.success)
          this.#context.logger?.warn?.(
            `Subscribing again to resource "${uri}" after reconnecting failed: ${result.error}`,
          );
      });
    }
  }

  // ---------------------------------------------------------------- list changes

  addChangeListener(listener: ResourcesChangedListener): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /**
   * For caches of read contents (the adapter's UI resources): `listener` hears of every
   * resources/updated (its URI) and resources/list_changed (undefined: anything may have changed).
   */
  addStaleListener(listener: (uri: string | undefined) => void): () => void {
    this.#staleListeners.add(listener);
    return () => this.#staleListeners.delete(listener);
  }

  /** The server sent notifications/resources/list_changed on `session`. */
  listChanged(session: Session): void {
    if (this.#context.current() !== session) return;
    for (const stale of this.#staleListeners) stale(undefined);
    this.#resources.invalidate();
    this.#templates.invalidate();
    if (this.#changeListeners.size > 0) this.#refresh.request();
  }

  async #refreshAndNotify(): Promise<void> {
    const session = this.#context.current();
    if (session === undefined) return;
    const { serverName, logger } = this.#context;
    let resources: readonly MCPResource[];
    let resourceTemplates: readonly MCPResourceTemplate[];
    try {
      [resources, resourceTemplates] = await Promise.all([
        this.#resources.refresh(session),
        this.#templates.refresh(session),
      ]);
    } catch (error) {
      logger?.warn?.(
        `Listing the resources of MCP server "${serverName}" after resources/list_changed failed: ${describeCause(error)}`,
        { error },
      );
      return;
    }
    const event = Object.freeze({ serverName, resources, resourceTemplates });
    for (const listener of [...this.#changeListeners]) {
      try {
        listener(event);
      } catch (error) {
        logger?.warn?.(`An onResourcesChanged listener of MCP server "${serverName}" threw: ${describeCause(error)}`, {
          error,
        });
      }
    }
  }

  #unsupported<T>(start: number, what: string, capability: string): MCPRequestResult<T> {
    return requestFailure(
      this.#context,
      start,
      "not_supported",
      `not supported: MCP server "${this.#context.serverName}" did not declare the "${capability}" capability, so ${what} cannot be sent`,
    );
  }
}

function checkUri(uri: unknown): string | undefined {
  if (typeof uri !== "string" || uri.length === 0) return "needs a non-empty URI string";
  return undefined;
}

function acceptContents(raw: unknown): { data: MCPResourceContents } | { problem: string } {
  if (!isRecord(raw) || !Array.isArray(raw.contents)) return { problem: 'no "contents" list' };
  for (const [index, item] of raw.contents.entries()) {
    if (!isRecord(item) || typeof item.uri !== "string") return { problem: `contents[${index}] has no "uri"` };
    if (typeof item.text !== "string" && typeof item.blob !== "string")
      return { problem: `contents[${index}] has neither "text" nor "blob"` };
  }
  return { data: raw as MCPResourceContents };
}
