import { formatValidationErrors, type CompiledSchema, type SchemaValidator } from "@mcp-tool-adapter/schema-validation";
import { freezeOwnedJson, frozenSnapshot, parseToolUiMeta, type ToolUi } from "@mcp-tool-adapter/registry";
import type { ToolCapability } from "@mcp-tool-adapter/capability-inference";
import { describeCause } from "./errors.js";
import { toolCapability } from "./tool-capabilities.js";
import type { CompiledToolFilter } from "./tool-filter.js";
import type { CapabilityOverridesByTool, Logger, MCPToolDescriptor } from "./types.js";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";

type SchemaCheck = { compiled: CompiledSchema } | { problem: string };

/**
 * One discovered tool: its frozen descriptor plus its schemas compiled on first use and then
 * kept, so an invoke never compiles.
 */
export class CatalogEntry {
  readonly descriptor: MCPToolDescriptor;
  /**
   * The tool declares `execution.taskSupport: "required"` (MCP tasks): a plain tools/call is
   * refused, so it is called as a task and its result fetched with tasks/result.
   */
  readonly requiresTask: boolean;
  /** Why the listed input schema is unusable (an invoke then fails with it), or undefined. */
  readonly inputProblem: string | undefined;
  #capability: ToolCapability | undefined;
  #input: SchemaCheck | undefined;
  #output: SchemaCheck | undefined;

  constructor(descriptor: MCPToolDescriptor, inputProblem: string | undefined, requiresTask = false) {
    this.descriptor = descriptor;
    this.requiresTask = requiresTask;
    this.inputProblem = inputProblem;
  }

  /**
   * What the tool may do under the adapter's overrides (fixed for an adapter's life), inferred on
   * the first call that needs it (retry safety, interceptors) and kept with the discovery.
   */
  capability(overrides: CapabilityOverridesByTool | undefined): ToolCapability {
    this.#capability ??= toolCapability(this.descriptor, overrides);
    return this.#capability;
  }

  /** Whether `other` defines the same tool: equal descriptors (whatever their key order) and reading. */
  sameDefinitionAs(other: CatalogEntry): boolean {
    return (
      other.requiresTask === this.requiresTask &&
      other.inputProblem === this.inputProblem &&
      jsonEqual(other.descriptor, this.descriptor)
    );
  }

  /** Undefined when `args` fit the input schema, otherwise the "validation failed: ..." message. */
  checkInput(args: Record<string, unknown>, validator: SchemaValidator): string | undefined {
    this.#input ??=
      this.inputProblem === undefined
        ? compile(this.descriptor.inputSchema, validator)
        : { problem: this.inputProblem };
    if ("problem" in this.#input) {
      return `validation failed: the input schema of tool "${this.descriptor.name}" is invalid, so its arguments cannot be checked (${this.#input.problem}); the server must fix the tool's inputSchema`;
    }
    const result = this.#input.compiled.validate(args);
    return result.valid
      ? undefined
      : `validation failed: arguments for tool "${this.descriptor.name}": ${formatValidationErrors(result.errors)}`;
  }

  /** Undefined when there is no output schema or `structured` fits it, otherwise the message. */
  checkOutput(structured: unknown, validator: SchemaValidator): string | undefined {
    const schema = this.descriptor.outputSchema;
    if (schema === undefined) return undefined;
    if (structured === undefined) {
      return `validation failed: tool "${this.descriptor.name}" declares an output schema but returned no structuredContent`;
    }
    this.#output ??= compile(schema, validator);
    if ("problem" in this.#output) {
      return `validation failed: the output schema of tool "${this.descriptor.name}" is invalid, so its structuredContent cannot be checked (${this.#output.problem})`;
    }
    const result = this.#output.compiled.validate(structured);
    return result.valid
      ? undefined
      : `validation failed: structuredContent of tool "${this.descriptor.name}" does not match its output schema: ${formatValidationErrors(result.errors)}`;
  }
}

function compile(schema: unknown, validator: SchemaValidator): SchemaCheck {
  try {
    return { compiled: validator.compile(schema) };
  } catch (error) {
    return { problem: describeCause(error) };
  }
}

/** The tools of one discovery: every listed tool, and the ones the filter exposes. */
export class ToolCatalog {
  /** What `discoveredTools` returns: the exposed tools, frozen. */
  readonly tools: readonly MCPToolDescriptor[];
  readonly filter: CompiledToolFilter;
  readonly #exposed: ReadonlyMap<string, CatalogEntry>;

  /**
   * Whether the listing came from the cross-process cache, so a tool it lacks may exist on the
   * server now. A field the call path reads without leaving this record.
   */
  readonly fromCache: boolean;

  /**
   * `entries`: the listed tools by name, in listing order (what CatalogEntriesBuilder.finish
   * returns). The catalog takes the map over when the filter keeps every tool, so a discovery of
   * thousands of tools does not build a second map of them; nobody may change it afterwards.
   */
  constructor(entries: ReadonlyMap<string, CatalogEntry>, filter: CompiledToolFilter, fromCache = false) {
    this.filter = filter;
    this.fromCache = fromCache;
    let exposed = entries;
    if (!filter.keepsAll) {
      const kept = new Map<string, CatalogEntry>();
      for (const [name, entry] of entries) if (filter.matches(name)) kept.set(name, entry);
      exposed = kept;
    }
    this.#exposed = exposed;
    const tools = new Array<MCPToolDescriptor>(exposed.size);
    let index = 0;
    for (const entry of exposed.values()) tools[index++] = entry.descriptor;
    this.tools = Object.freeze(tools);
  }

  get(name: string): CatalogEntry | undefined {
    return this.#exposed.get(name);
  }

  entries(): IterableIterator<CatalogEntry> {
    return this.#exposed.values();
  }

  /** What changed from `previous` to this catalog, by exposed tool name. */
  diffFrom(previous: ToolCatalog | undefined): { added: string[]; removed: string[]; changed: string[] } {
    const added: string[] = [];
    const changed: string[] = [];
    for (const [name, entry] of this.#exposed) {
      const before = previous?.get(name);
      if (before === undefined) added.push(name);
      else if (before !== entry && !before.sameDefinitionAs(entry)) changed.push(name);
    }
    const removed =
      previous === undefined ? [] : [...previous.#exposed.keys()].filter((name) => !this.#exposed.has(name));
    return { added, removed, changed };
  }
}

/**
 * Turns the raw `tools` of tools/list pages into catalog entries, a page at a time as the pages
 * arrive, so discovery never holds every page's raw tools and their frozen copies at once.
 * Malformed entries (no name) are skipped with a warning; a tool with an unusable input schema is
 * kept and fails on invoke. Entries of `previous` whose listing did not change are reused with
 * their compiled schemas. The warnings are logged by `finish()`, so a discovery that fails on a
 * later page logs none, as when every page was read first.
 */
export class CatalogEntriesBuilder {
  readonly #entries = new Map<string, CatalogEntry>();
  readonly #warnings: { message: string; meta?: Record<string, unknown> }[] = [];
  readonly #previous: ToolCatalog | undefined;

  constructor(previous: ToolCatalog | undefined) {
    this.#previous = previous;
  }

  /**
   * Adds one page's raw tools; `serverName` is for the warnings. `owned`: the page was parsed from
   * the wire just now and nothing else holds it, so its schemas are frozen in place, not copied.
   */
  addPage(rawTools: readonly unknown[], { serverName, owned = false }: { serverName: string; owned?: boolean }): void {
    const entries = this.#entries;
    // An index loop: for...of allocates an iterator result per tool until the loop is optimized,
    // and a discovery runs this loop once per page, mostly unoptimized.
    for (let index = 0; index < rawTools.length; index++) {
      const raw = rawTools[index];
      if (
        typeof raw !== "object" ||
        raw === null ||
        typeof (raw as { name?: unknown }).name !== "string" ||
        (raw as { name: string }).name === ""
      ) {
        this.#warnings.push({
          message: `MCP server "${serverName}" listed a tool without a name; skipping it`,
          meta: { tool: raw },
        });
        continue;
      }
      const listed = readListing(raw as Record<string, unknown> & { name: string });
      if (entries.has(listed.name)) {
        this.#warnings.push({
          message: `MCP server "${serverName}" listed tool "${listed.name}" twice; keeping the first`,
        });
        continue;
      }
      const before = this.#previous?.get(listed.name);
      // An unchanged tool keeps its entry, compared in place without a new snapshot being made: a
      // rediscovery of thousands of tools (list_changed, a reconnect) mostly finds them unchanged.
      entries.set(listed.name, before !== undefined && listsAs(listed, before) ? before : toEntry(listed, owned));
    }
  }

  /**
   * Logs the warnings of every page added, and returns the entries by name in listing order: the
   * builder's own map, handed over (the builder is done with it).
   */
  finish(logger: Logger | undefined): Map<string, CatalogEntry> {
    for (const { message, meta } of this.#warnings) {
      if (meta === undefined) logger?.warn?.(message);
      else logger?.warn?.(message, meta);
    }
    return this.#entries;
  }
}

/** A listed tool's fields as the catalog reads them, before anything is copied or frozen. */
interface ListedTool {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly inputProblem: string | undefined;
  readonly outputSchema: Record<string, unknown> | undefined;
  readonly annotations: Record<string, unknown> | undefined;
  readonly ui: ToolUi | undefined;
  readonly requiresTask: boolean;
}

/** The input schema of a tool that lists none: it takes an object of any shape. */
const DEFAULT_INPUT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({ type: "object" });
/** What stands in for an unusable input schema (the entry's inputProblem says why). */
const NO_INPUT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({});

function readListing(raw: Record<string, unknown> & { name: string }): ListedTool {
  const { inputSchema, outputSchema, annotations, title, description, execution, _meta } = raw;
  return {
    name: raw.name,
    title: typeof title === "string" ? title : undefined,
    description: typeof description === "string" ? description : "",
    inputSchema: isRecord(inputSchema)
      ? inputSchema
      : inputSchema === undefined
        ? DEFAULT_INPUT_SCHEMA
        : NO_INPUT_SCHEMA,
    inputProblem:
      inputSchema === undefined || isRecord(inputSchema)
        ? undefined
        : `inputSchema must be a JSON Schema object, got ${Array.isArray(inputSchema) ? "an array" : typeof inputSchema}`,
    outputSchema: isRecord(outputSchema) ? outputSchema : undefined,
    annotations: isRecord(annotations) ? annotations : undefined,
    ui: parseToolUiMeta(_meta),
    requiresTask: isRecord(execution) && execution.taskSupport === "required",
  };
}

/** True when `listed` would make the same entry as `entry`, compared in place. */
function listsAs(listed: ListedTool, entry: CatalogEntry): boolean {
  const { descriptor } = entry;
  return (
    listed.title === descriptor.title &&
    listed.description === descriptor.description &&
    listed.inputProblem === entry.inputProblem &&
    listed.requiresTask === entry.requiresTask &&
    jsonEqual(listed.inputSchema, descriptor.inputSchema) &&
    optionalJsonEqual(listed.outputSchema, descriptor.outputSchema) &&
    optionalJsonEqual(listed.annotations, descriptor.annotations) &&
    optionalJsonEqual(listed.ui, descriptor.ui)
  );
}

function optionalJsonEqual(listed: unknown, kept: unknown): boolean {
  return listed === undefined || kept === undefined ? listed === kept : jsonEqual(listed, kept);
}

function toEntry(listed: ListedTool, owned: boolean): CatalogEntry {
  const { title, outputSchema, annotations, ui } = listed;
  const freeze = owned ? freezeOwnedJson : frozenSnapshot;
  const { name, description } = listed;
  // The shared defaults are frozen already, so their snapshot is the object itself.
  const inputSchema = freeze(listed.inputSchema);
  // Built by assignment, not with conditional spreads: a spread allocates an object per optional
  // field per tool, and discovery builds thousands of these. The key order stays the same.
  const descriptor: { -readonly [K in keyof MCPToolDescriptor]: MCPToolDescriptor[K] } =
    title === undefined ? { name, description, inputSchema } : { name, title, description, inputSchema };
  if (outputSchema !== undefined) descriptor.outputSchema = freeze(outputSchema);
  if (annotations !== undefined) descriptor.annotations = freeze(annotations);
  if (ui !== undefined) descriptor.ui = ui;
  return new CatalogEntry(Object.freeze(descriptor), listed.inputProblem, listed.requiresTask);
}

/** Deep equality of JSON data, whatever the key order: what equal canonicalJson texts mean, without building them. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!jsonEqual(a[index], b[index])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key)) continue;
    keys += 1;
    if (!Object.hasOwn(right, key) || !jsonEqual(left[key], right[key])) return false;
  }
  for (const key in right) if (Object.hasOwn(right, key)) keys -= 1;
  return keys === 0;
}

/** JSON with object keys sorted, so equal values give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (isRecord(v)) {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) sorted[key] = v[key];
      return sorted;
    }
    return v;
  });
}
