import {
  createModelToolNames,
  createModelToolSet,
  resolveToolSource,
  toolsetMatcher,
  type ModelToolCallContext,
  type ModelToolNameOptions,
  type ModelToolNames,
  type ToolSource,
  type ToolSourceInput,
} from "@mcp-tool-adapter/model-tools";
import {
  matchToolset,
  ToolRegistry,
  validateToolName,
  type RegisteredTool,
  type RegistryChange,
  type ToolCallResult,
  type ToolsetMatcher,
} from "@mcp-tool-adapter/registry";
import { metaToolDefinitions, type MetaToolActions } from "./meta-tools.js";
import { createToolIndex, type ToolIndex, type ToolIndexOptions, type ToolSearchHit } from "./tool-index.js";
import { ToolSearchError } from "./tool-search-error.js";

export interface ToolSearchOptions extends ToolIndexOptions {
  /** Tools sent with every step, found or not (toolset patterns: `["memory/read_graph", "github/get_*"]`). */
  pinned?: readonly string[];
  /** The meta-tools' namespace; the model sees `<namespace>__search`, `__load`, `__call`. Default "tools". */
  namespace?: string;
  /** How many tools one search returns unless the model asks for another number; default 8. */
  maxResults?: number;
  /** Offer the `call` meta-tool (call a found tool without loading it); default true. */
  directCall?: boolean;
  /**
   * Model-name options for calls that do not come through a bridge (the `load` method, a direct
   * `source.call`). Through a bridge, results use that bridge's own names: its tool set hands them
   * to the meta-tools with each call, worked out over the whole toolset (`source.namingScope`).
   */
  names?: ModelToolNameOptions;
}

/**
 * The model-facing side of a tool index: meta-tools to search, load and call, pinned tools, and
 * the set of loaded tools, as tool sources every bridge and model-tools take.
 */
export interface ToolSearch {
  readonly index: ToolIndex;
  /**
   * What the model sees now: the meta-tools, the pinned tools and the loaded ones. Convert it
   * again each step (or on `subscribe`) in runtimes that take a new tool list per step.
   */
  readonly source: ToolSource;
  /**
   * The meta-tools and every tool of the toolset, for runtimes whose tool list is fixed for a run
   * and that pick the active ones per step (the AI SDK's `activeTools`, OpenAI Agents' `isEnabled`):
   * convert it once and enable what {@link isActive} says.
   */
  readonly catalog: ToolSource;
  /** Whether the model should see this tool (registry name) now: a meta-tool, pinned, or loaded. Safe to pass unbound. */
  readonly isActive: (registryName: string) => boolean;
  /** Loads tools by registry or model name, as the `load` meta-tool does; returns the registry names loaded. */
  load(names: readonly string[]): string[];
  /** Forgets loaded tools (all of them without names), e.g. between conversations. */
  unload(names?: readonly string[]): void;
  readonly loaded: readonly string[];
  /** Stops following the source. */
  close(): void;
}

const DEFAULT_NAMESPACE = "tools";
const DEFAULT_MAX_RESULTS = 8;

/**
 * Tool search over a registry, server set or discovered MCPToolAdapter: instead of hundreds of
 * definitions, the model gets a search tool, a load tool and (optionally) a call tool. Calls of
 * found tools go through the source exactly as calls of tools sent up front (the adapter's
 * `invoke`: interceptors, pinning, validation), and the bridges apply their approval policy to
 * loaded tools as to any other.
 */
export function createToolSearch(input: ToolSourceInput, options: ToolSearchOptions = {}): ToolSearch {
  return new SearchSession(resolveToolSource(input), options);
}

class SearchSession implements ToolSearch {
  readonly index: ToolIndex;
  readonly source: ToolSource;
  readonly catalog: ToolSource;
  readonly #underlying: ToolSource;
  readonly #meta = new ToolRegistry();
  readonly #namespace: string;
  readonly #inToolset: ToolsetMatcher;
  readonly #pinned: ToolsetMatcher;
  readonly #loaded = new Set<string>();
  readonly #listeners = new Set<(change: RegistryChange) => void>();
  readonly #maxResults: number;
  readonly #nameOptions: ModelToolNameOptions | undefined;
  #names: ModelToolNames | undefined;
  #scope: readonly string[] | undefined;
  readonly #unsubscribe: () => void;

  constructor(underlying: ToolSource, options: ToolSearchOptions) {
    this.#underlying = underlying;
    this.#namespace = options.namespace ?? DEFAULT_NAMESPACE;
    const problem = validateToolName("namespace", this.#namespace);
    if (problem !== undefined) throw new ToolSearchError("INVALID_OPTIONS", `Tool search: namespace: ${problem}.`);
    const maxResults = options.maxResults ?? DEFAULT_MAX_RESULTS;
    if (!Number.isInteger(maxResults) || maxResults < 1)
      throw new ToolSearchError(
        "INVALID_OPTIONS",
        `Tool search: maxResults must be a whole number >= 1, got ${String(maxResults)}.`,
      );
    this.#maxResults = maxResults;
    this.#nameOptions = options.names;
    this.#inToolset = toolsetMatcher(options.toolset) ?? (() => true);
    this.#pinned = options.pinned === undefined ? () => false : matchToolset(options.pinned);
    if (underlying.list({ namespace: this.#namespace }).length > 0)
      throw new ToolSearchError(
        "NAME_COLLISION",
        `Tool search: the source already has tools in namespace "${this.#namespace}", which the meta-tools use; pass another \`namespace\`.`,
      );
    this.#meta.replaceNamespace(
      this.#namespace,
      metaToolDefinitions(this.#actions(), { directCall: options.directCall ?? true }),
    );
    this.index = createToolIndex(underlying, options);
    this.source = this.#view((name) => this.isActive(name));
    this.catalog = this.#view((name) => this.#inToolset(name));
    this.#unsubscribe = underlying.subscribe((change) => {
      this.#names = undefined;
      this.#scope = undefined;
      for (const name of change.removed) this.#loaded.delete(name);
      this.#emit(change);
    });
  }

  get loaded(): readonly string[] {
    return [...this.#loaded];
  }

  /** A field, not a method: passed around unbound (`prepareStep`, `isEnabled`). */
  readonly isActive = (registryName: string): boolean => {
    if (this.#meta.has(registryName)) return true;
    return this.#inToolset(registryName) && (this.#loaded.has(registryName) || this.#pinned(registryName));
  };

  load(names: readonly string[]): string[] {
    return this.#load(names, this.#ownNames()).loaded;
  }

  unload(names?: readonly string[]): void {
    const removed =
      names === undefined ? [...this.#loaded] : names.map((name) => this.#resolve(name, this.#ownNames()) ?? name);
    const gone = removed.filter((name) => this.#loaded.delete(name));
    if (gone.length > 0) this.#emit({ added: [], removed: gone, changed: [] });
  }

  close(): void {
    this.#unsubscribe();
    this.index.close();
    this.#listeners.clear();
  }

  /**
   * A tool source over the meta-tools and the underlying tools `visible` lets through, named over
   * the whole toolset: a loaded tool has the name the search gave it, collisions or not.
   */
  #view(visible: (registryName: string) => boolean): ToolSource {
    return {
      namingScope: () => this.#namingScope(),
      list: (filter) => {
        const meta = filter?.namespace === undefined || filter.namespace === this.#namespace ? this.#meta.list() : [];
        return [...meta, ...this.#underlying.list(filter).filter((tool) => visible(tool.name))];
      },
      call: (name, args, context) => {
        if (this.#meta.has(name)) return this.#meta.call(name, args, context);
        if (!visible(name)) return Promise.resolve(notLoaded(name, this.#namespace));
        return this.#underlying.call(name, args, context);
      },
      subscribe: (listener) => {
        this.#listeners.add(listener);
        return () => this.#listeners.delete(listener);
      },
    };
  }

  #actions(): MetaToolActions {
    return {
      search: async (query, limit, context) => {
        const hits = await this.index.searchHybrid(query, { limit: limit ?? this.#maxResults });
        const names = this.#namesOf(context);
        return ok({
          tools: hits.map((hit) => this.#describe(hit, names)),
          next:
            hits.length === 0
              ? "No tool matched; try other words."
              : `Load the tools you need with ${modelName(names, `${this.#namespace}/load`)} (they are available from your next step on).`,
        });
      },
      load: (requested, context) => {
        const names = this.#namesOf(context);
        const { loaded, unknown } = this.#load(requested, names);
        return unknown.length > 0 && loaded.length === 0
          ? {
              success: false,
              errorKind: "not_found",
              error: `No tool named ${unknown.map((name) => `"${name}"`).join(", ")}; use names exactly as the search returned them.`,
              durationMs: 0,
            }
          : ok({ loaded: loaded.map((name) => modelName(names, name)), ...(unknown.length > 0 ? { unknown } : {}) });
      },
      call: async (name, args, context) => {
        const registryName = this.#resolve(name, this.#namesOf(context));
        if (registryName === undefined) return notFound(name);
        const tool = createModelToolSet(this.#underlying, {
          filter: (candidate) => candidate.name === registryName,
        }).tools[0];
        if (tool === undefined) return notFound(name);
        return tool.execute(args, context.signal === undefined ? {} : { signal: context.signal });
      },
    };
  }

  #load(requested: readonly string[], names: NameLookup): { loaded: string[]; unknown: string[] } {
    const loaded: string[] = [];
    const unknown: string[] = [];
    for (const name of requested) {
      const registryName = this.#resolve(name, names);
      if (registryName === undefined) unknown.push(name);
      else loaded.push(registryName);
    }
    const added = loaded.filter((name) => !this.#loaded.has(name));
    for (const name of added) this.#loaded.add(name);
    if (added.length > 0) this.#emit({ added, removed: [], changed: [] });
    return { loaded, unknown };
  }

  /** A registry or model name of a tool in the toolset, as its registry name. */
  #resolve(name: string, names: NameLookup): string | undefined {
    const registryName = names.toRegistryName(name) ?? name;
    if (!this.#inToolset(registryName) || this.#meta.has(registryName)) return undefined;
    const slash = registryName.indexOf("/");
    if (slash < 0) return undefined;
    const exists = this.#underlying
      .list({ namespace: registryName.slice(0, slash) })
      .some((tool: RegisteredTool) => tool.name === registryName);
    return exists ? registryName : undefined;
  }

  #describe(hit: ToolSearchHit, names: NameLookup): Record<string, unknown> {
    return {
      name: modelName(names, hit.name),
      description: hit.description,
      matched: hit.matched.map((match) => `${match.term} (${match.fields.join(", ")})`).join("; "),
      ...(this.isActive(hit.name) ? { loaded: true } : {}),
    };
  }

  /**
   * The names of the bridge the call came through, then this search's own: for a call from
   * elsewhere, and for a tool that arrived after the bridge converted its tools (a runtime whose
   * tool list is fixed for the run reaches it through the call meta-tool).
   */
  #namesOf(context: ModelToolCallContext): NameLookup {
    const bridge = context.modelNames;
    const own = (): ModelToolNames => this.#ownNames();
    if (bridge === undefined) return own();
    return {
      toModelName: (registryName) => modelName(bridge, registryName, () => own().toModelName(registryName)),
      toRegistryName: (name) => bridge.toRegistryName(name) ?? own().toRegistryName(name),
    };
  }

  /** Model names over the naming scope with the `names` option: for calls that bring no names. */
  #ownNames(): ModelToolNames {
    return (this.#names ??= createModelToolNames(this.#namingScope(), this.#nameOptions));
  }

  /** The meta-tools and every tool of the toolset: the set both views name their tools over. */
  #namingScope(): readonly string[] {
    return (this.#scope ??= [
      ...this.#meta.list().map((tool) => tool.name),
      ...this.#underlying
        .list()
        .filter((tool) => this.#inToolset(tool.name))
        .map((tool) => tool.name),
    ]);
  }

  #emit(change: RegistryChange): void {
    for (const listener of [...this.#listeners]) listener(change);
  }
}

/** Both directions of a model-name map. */
type NameLookup = Pick<ModelToolNames, "toModelName" | "toRegistryName">;

/** The name the model calls a tool by; `otherwise` (its registry name by default) if the names do not hold it. */
function modelName(names: NameLookup, registryName: string, otherwise = (): string => registryName): string {
  try {
    return names.toModelName(registryName);
  } catch {
    return otherwise();
  }
}

function ok(data: Record<string, unknown>): ToolCallResult {
  return { success: true, data, durationMs: 0 };
}

function notFound(name: string): ToolCallResult {
  return {
    success: false,
    errorKind: "not_found",
    error: `No tool named "${name}"; use a name exactly as the search returned it.`,
    durationMs: 0,
  };
}

function notLoaded(name: string, namespace: string): ToolCallResult {
  return {
    success: false,
    errorKind: "not_found",
    error: `Tool "${name}" is not loaded: find it with ${namespace}__search and load it with ${namespace}__load first.`,
    durationMs: 0,
  };
}
