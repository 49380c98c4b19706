import { displayName } from "./display-name.js";
import { RegistryError } from "./registry-error.js";
import { runHandler } from "./run-handler.js";
import { assertValidName, describesSameTool, snapshotTool } from "./snapshot-tool.js";
import type {
  Logger,
  RegisteredTool,
  RegistryChange,
  RegistryListener,
  ToolCallContext,
  ToolCallResult,
  ToolDefinition,
  ToolListFilter,
  ToolRegistryOptions,
} from "./types.js";

type Namespace = Map<string, RegisteredTool>;

/**
 * A store of tools from any source (MCP servers, local functions, ...), addressed as
 * `"namespace/tool"`. Entries are frozen snapshots; every mutation is synchronous, so a
 * reader never sees half of one, and listeners hear about it after it is complete.
 */
export class ToolRegistry {
  // Maps, never object literals: tool names such as "__proto__" are just keys here.
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #namespaces = new Map<string, Namespace>();
  readonly #listeners = new Set<RegistryListener>();
  readonly #pending: RegistryChange[] = [];
  #delivering = false;
  readonly #logger: Logger | undefined;
  readonly #now: () => number;

  constructor(options: ToolRegistryOptions = {}) {
    this.#logger = options.logger;
    this.#now = options.now ?? (() => performance.now());
  }

  get size(): number {
    return this.#tools.size;
  }

  /** Adds one tool; throws RegistryError (INVALID_NAME, INVALID_TOOL, DUPLICATE_TOOL) and changes nothing on failure. */
  register(namespace: string, tool: ToolDefinition): RegisteredTool {
    assertValidName("namespace", namespace);
    const entry = snapshotTool(namespace, tool);
    if (this.#tools.has(entry.name)) {
      throw new RegistryError(
        "DUPLICATE_TOOL",
        `Tool ${displayName(entry.name)} is already registered. ` +
          "Unregister it first, or use replaceNamespace to swap a namespace's tools.",
      );
    }
    this.#insert(entry);
    this.#emit({ namespace, added: [entry.name], removed: [], changed: [] });
    return entry;
  }

  /**
   * Makes `tools` the whole content of `namespace` in one step: stale entries go, new ones
   * come in, the rest are replaced. If any tool is invalid or two share a name, it throws
   * and the namespace keeps its old tools.
   */
  replaceNamespace(namespace: string, tools: readonly ToolDefinition[]): RegistryChange {
    assertValidName("namespace", namespace);
    const given: unknown = tools; // JavaScript callers may pass anything
    if (!Array.isArray(given)) {
      throw new RegistryError(
        "INVALID_TOOL",
        `Cannot replace namespace ${displayName(namespace)}: expected an array of tool definitions.`,
      );
    }
    const next: Namespace = new Map();
    for (const tool of tools) {
      const entry = snapshotTool(namespace, tool);
      if (next.has(entry.localName)) {
        throw new RegistryError(
          "DUPLICATE_TOOL",
          `Cannot replace namespace ${displayName(namespace)}: tool ${displayName(entry.localName)} appears twice. ` +
            "Give each tool a distinct name; the namespace was left unchanged.",
        );
      }
      next.set(entry.localName, entry);
    }

    const previous = this.#namespaces.get(namespace) ?? new Map<string, RegisteredTool>();
    const change: RegistryChange = { namespace, added: [], removed: [], changed: [] };
    for (const [localName, old] of previous) {
      if (!next.has(localName)) {
        this.#tools.delete(old.name);
        change.removed.push(old.name);
      }
    }
    for (const entry of next.values()) {
      const old = previous.get(entry.localName);
      if (old === undefined) change.added.push(entry.name);
      else if (!describesSameTool(old, entry)) change.changed.push(entry.name);
      this.#tools.set(entry.name, entry);
    }
    if (next.size === 0) this.#namespaces.delete(namespace);
    else this.#namespaces.set(namespace, next);

    this.#emit(change);
    return change;
  }

  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Tools in registration order; a namespace filter reads only that namespace's index. */
  list(filter: ToolListFilter = {}): RegisteredTool[] {
    const { namespace, source } = filter;
    const pool = namespace === undefined ? this.#tools.values() : (this.#namespaces.get(namespace)?.values() ?? []);
    const tools = [...pool];
    return source === undefined ? tools : tools.filter((tool) => tool.source === source);
  }

  /** Namespaces that hold at least one tool, in the order they were first filled. */
  namespaces(): string[] {
    return [...this.#namespaces.keys()];
  }

  unregister(name: string): boolean {
    const entry = this.#tools.get(name);
    if (entry === undefined) return false;
    this.#tools.delete(name);
    const namespace = this.#namespaces.get(entry.namespace);
    namespace?.delete(entry.localName);
    if (namespace?.size === 0) this.#namespaces.delete(entry.namespace);
    this.#emit({ namespace: entry.namespace, added: [], removed: [name], changed: [] });
    return true;
  }

  unregisterNamespace(namespace: string): RegistryChange {
    const entries = this.#namespaces.get(namespace);
    const change: RegistryChange = { namespace, added: [], removed: [], changed: [] };
    if (entries === undefined) return change;
    this.#namespaces.delete(namespace);
    for (const entry of entries.values()) {
      this.#tools.delete(entry.name);
      change.removed.push(entry.name);
    }
    this.#emit(change);
    return change;
  }

  /**
   * Calls a tool by full name. Never throws: an unknown name gives errorKind "not_found",
   * a handler that throws, rejects or returns something that is not a result gives
   * "handler_error". `context` (its abort signal) is handed to the handler.
   */
  async call(name: string, args: Record<string, unknown> = {}, context: ToolCallContext = {}): Promise<ToolCallResult> {
    const tool = this.#tools.get(name);
    if (tool === undefined) {
      return {
        success: false,
        error: `Tool ${displayName(name)} not found in the registry. Check the "namespace/tool" name, or list() the registered tools.`,
        errorKind: "not_found",
        durationMs: 0,
      };
    }
    return runHandler(tool, args, context, this.#now);
  }

  /** Calls `listener` after every mutation that changed something; returns the unsubscribe function. */
  subscribe(listener: RegistryListener): () => void {
    // Wrapped so the same function subscribed twice gets two independent subscriptions.
    const subscription: RegistryListener = (change) => listener(change);
    this.#listeners.add(subscription);
    return () => {
      this.#listeners.delete(subscription);
    };
  }

  #insert(entry: RegisteredTool): void {
    this.#tools.set(entry.name, entry);
    let namespace = this.#namespaces.get(entry.namespace);
    if (namespace === undefined) {
      namespace = new Map();
      this.#namespaces.set(entry.namespace, namespace);
    }
    namespace.set(entry.localName, entry);
  }

  #emit(change: RegistryChange): void {
    if (change.added.length === 0 && change.removed.length === 0 && change.changed.length === 0) return;
    // A listener that mutates the registry queues its change behind the current one, so
    // every listener hears changes in the order they happened.
    this.#pending.push(change);
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let next = this.#pending.shift(); next !== undefined; next = this.#pending.shift()) {
        this.#deliver(next);
      }
    } finally {
      this.#delivering = false;
    }
  }

  #deliver(change: RegistryChange): void {
    // Each listener gets its own copy, so one cannot edit what the next one sees.
    for (const listener of [...this.#listeners]) {
      try {
        listener(structuredClone(change));
      } catch (error) {
        this.#logger?.warn?.("ToolRegistry: a change listener threw; the registry and other listeners carry on.", {
          error,
          change,
        });
      }
    }
  }
}
