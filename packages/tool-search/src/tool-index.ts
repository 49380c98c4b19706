import {
  resolveToolSource,
  toolsetMatcher,
  type ToolSourceInput,
  type ToolsetOption,
} from "@mcp-tool-adapter/model-tools";
import type { RegisteredTool, RegistryChange, ToolsetMatcher } from "@mcp-tool-adapter/registry";
import MiniSearch, { type SearchResult } from "minisearch";
import { EmbeddingStore, type EmbedFunction } from "./embedding-store.js";
import { oneLine, tokenize, toTerm } from "./search-text.js";
import {
  DEFAULT_FIELD_BOOST,
  TOOL_SEARCH_FIELDS,
  toToolDocument,
  type ToolDocument,
  type ToolSearchField,
} from "./tool-document.js";
import { ToolSearchError } from "./tool-search-error.js";

export interface ToolIndexOptions {
  /** Index only a toolset's tools: its patterns, or one of a config's `toolsets` by name. */
  toolset?: ToolsetOption;
  /** Weight of a match per field; default name 3, title 2, namespace 1.5, description 1, parameters 0.5. */
  boost?: Partial<Record<ToolSearchField, number>>;
  /**
   * Your embedding function (texts in, one vector each out; no model ships with this package).
   * With it, {@link ToolIndex.searchHybrid} ranks by words and by meaning together.
   */
  embed?: EmbedFunction;
}

/** Why a tool matched: a query word and the fields it was found in. */
export interface ToolMatch {
  readonly term: string;
  readonly fields: readonly (ToolSearchField | "meaning")[];
}

export interface ToolSearchHit {
  /** The registry name, `namespace/tool`. */
  readonly name: string;
  readonly namespace: string;
  /** The description's first sentence. */
  readonly description: string;
  readonly score: number;
  readonly matched: readonly ToolMatch[];
}

export interface ToolSearchQueryOptions {
  /** At most this many hits; default 10. */
  limit?: number;
  /** Only tools of this namespace (server). */
  namespace?: string;
}

/** A search index over a tool source's tools, kept current as the source changes (tools/list_changed). */
export interface ToolIndex {
  /** Full-text search over names (split at `_`, `-` and camelCase), titles, descriptions, parameters and namespaces. */
  search(query: string, options?: ToolSearchQueryOptions): ToolSearchHit[];
  /**
   * Words and meaning together (reciprocal rank fusion of the full-text and the embedding ranking)
   * when the index has an `embed` function; the full-text search without one. Rejects with
   * ToolSearchError `EMBEDDING_FAILED` when `embed` fails.
   */
  searchHybrid(query: string, options?: ToolSearchQueryOptions): Promise<ToolSearchHit[]>;
  has(name: string): boolean;
  /** How many tools are indexed. */
  readonly size: number;
  /** Stops following the source. */
  close(): void;
}

const DEFAULT_LIMIT = 10;
/** Reciprocal rank fusion's constant: how much lower ranks still count (the usual 60). */
const RRF_K = 60;

/**
 * Indexes the tools of a registry, server set or discovered MCPToolAdapter and follows its
 * changes: a tools/list_changed replaces the documents of the tools that changed, nothing else.
 * Built on MiniSearch (BM25 ranking, prefix search, documents added, replaced and discarded one
 * at a time, no dependencies, runs in browsers).
 */
export function createToolIndex(input: ToolSourceInput, options: ToolIndexOptions = {}): ToolIndex {
  return new MiniSearchToolIndex(input, options);
}

class MiniSearchToolIndex implements ToolIndex {
  readonly #search: MiniSearch<ToolDocument>;
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #inToolset: ToolsetMatcher | undefined;
  readonly #embeddings: EmbeddingStore | undefined;
  readonly #unsubscribe: () => void;

  constructor(input: ToolSourceInput, options: ToolIndexOptions) {
    const source = resolveToolSource(input);
    this.#inToolset = toolsetMatcher(options.toolset);
    this.#search = new MiniSearch<ToolDocument>({
      fields: [...TOOL_SEARCH_FIELDS],
      tokenize,
      processTerm: toTerm,
      searchOptions: {
        boost: boostOf(options.boost),
        // Prefix matches ("repo" finds "repository") for the last word only, as a search box does:
        // every prefix term adds the documents of all its completions to score. No fuzzy matching:
        // it multiplies the terms looked up (its cost grows with the vocabulary), and tool names
        // are rarely misspelled.
        prefix: (term, position, terms) => position === terms.length - 1 && term.length >= 4,
        combineWith: "OR",
      },
    });
    if (options.embed !== undefined) {
      if (typeof options.embed !== "function")
        throw new ToolSearchError("INVALID_OPTIONS", "Tool index: `embed` must be a function (texts) => vectors.");
      this.#embeddings = new EmbeddingStore(options.embed);
    }
    this.#search.addAll(this.#keep(source.list()).map((tool) => this.#remember(tool)));
    this.#unsubscribe = source.subscribe((change) => this.#apply(change, source.list.bind(source)));
  }

  get size(): number {
    return this.#tools.size;
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  search(query: string, options: ToolSearchQueryOptions = {}): ToolSearchHit[] {
    return this.#lexical(query, options).map((result) =>
      this.#hit(result.id as string, result.score, matchesOf(result)),
    );
  }

  async searchHybrid(query: string, options: ToolSearchQueryOptions = {}): Promise<ToolSearchHit[]> {
    if (this.#embeddings === undefined) return this.search(query, options);
    const limit = limitOf(options.limit);
    const lexical = this.#lexical(query, { ...options, limit: limit * 3 });
    const semantic = await this.#embeddings.rank(query, this.#candidates(options.namespace), limit * 3);
    const fused = new Map<string, { score: number; matched: ToolMatch[] }>();
    lexical.forEach((result, rank) => {
      fused.set(result.id as string, { score: 1 / (RRF_K + rank + 1), matched: matchesOf(result) });
    });
    semantic.forEach(({ name, similarity }, rank) => {
      const entry = fused.get(name) ?? { score: 0, matched: [] };
      entry.score += 1 / (RRF_K + rank + 1);
      entry.matched.push({ term: `similarity ${similarity.toFixed(2)}`, fields: ["meaning"] });
      fused.set(name, entry);
    });
    return [...fused]
      .sort(([, a], [, b]) => b.score - a.score)
      .slice(0, limit)
      .map(([name, { score, matched }]) => this.#hit(name, score, matched));
  }

  close(): void {
    this.#unsubscribe();
  }

  #lexical(query: string, options: ToolSearchQueryOptions): SearchResult[] {
    const { namespace } = options;
    const limit = limitOf(options.limit);
    // A namespace is a document boost of 0 elsewhere: MiniSearch skips those documents before
    // scoring them, where a `filter` would score every match first.
    const results = this.#search.search(
      query,
      namespace === undefined
        ? {}
        : { boostDocument: (id) => (this.#tools.get(id as string)?.namespace === namespace ? 1 : 0) },
    );
    return results.length > limit ? results.slice(0, limit) : results;
  }

  #candidates(namespace: string | undefined): RegisteredTool[] {
    const tools = [...this.#tools.values()];
    return namespace === undefined ? tools : tools.filter((tool) => tool.namespace === namespace);
  }

  #hit(name: string, score: number, matched: readonly ToolMatch[]): ToolSearchHit {
    const tool = this.#tools.get(name);
    return {
      name,
      namespace: tool?.namespace ?? "",
      description: oneLine(tool?.description ?? ""),
      score,
      matched,
    };
  }

  #keep(tools: readonly RegisteredTool[]): readonly RegisteredTool[] {
    const inToolset = this.#inToolset;
    return inToolset === undefined ? tools : tools.filter((tool) => inToolset(tool.name));
  }

  #remember(tool: RegisteredTool): ToolDocument {
    this.#tools.set(tool.name, tool);
    this.#embeddings?.forget(tool.name);
    return toToolDocument(tool);
  }

  /** Only the named tools: one namespace's refresh costs that namespace's changed tools, not the whole index. */
  #apply(change: RegistryChange, list: (filter?: { namespace?: string }) => readonly RegisteredTool[]): void {
    for (const name of change.removed) this.#drop(name);
    const touched = new Set([...change.added, ...change.changed]);
    if (touched.size === 0) return;
    const current = new Map(
      (change.namespace === undefined ? list() : list({ namespace: change.namespace }))
        .filter((tool) => touched.has(tool.name))
        .map((tool) => [tool.name, tool]),
    );
    for (const name of touched) {
      const tool = current.get(name);
      if (tool === undefined || !this.#keep([tool]).length) {
        this.#drop(name);
        continue;
      }
      const document = this.#remember(tool);
      if (this.#search.has(name)) this.#search.replace(document);
      else this.#search.add(document);
    }
  }

  #drop(name: string): void {
    if (!this.#tools.delete(name)) return;
    this.#embeddings?.forget(name);
    if (this.#search.has(name)) this.#search.discard(name);
  }
}

function boostOf(given: Partial<Record<ToolSearchField, number>> | undefined): Record<string, number> {
  const boost: Record<string, number> = { ...DEFAULT_FIELD_BOOST };
  for (const [field, weight] of Object.entries(given ?? {})) {
    if (!(TOOL_SEARCH_FIELDS as readonly string[]).includes(field) || typeof weight !== "number" || !(weight >= 0))
      throw new ToolSearchError(
        "INVALID_OPTIONS",
        `Tool index: boost.${field} must be a number >= 0 for one of ${TOOL_SEARCH_FIELDS.join(", ")}.`,
      );
    boost[field] = weight;
  }
  return boost;
}

function limitOf(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1)
    throw new ToolSearchError(
      "INVALID_OPTIONS",
      `Tool search: limit must be a whole number >= 1, got ${String(limit)}.`,
    );
  return limit;
}

function matchesOf(result: SearchResult): ToolMatch[] {
  return Object.entries(result.match).map(([term, fields]) => ({ term, fields: fields as ToolSearchField[] }));
}
