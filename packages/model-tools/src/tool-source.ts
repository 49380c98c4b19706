import type { RegisteredTool, RegistryChange, ToolCallResult } from "@mcp-tool-adapter/registry";
import { adapterToolSource, type ToolAdapterSource } from "./adapter-tool-source.js";
import type { ModelToolNames } from "./model-tool-names.js";
import { ModelToolsError } from "./model-tools-error.js";

/** What a model tool hands its source with a call. */
export interface ModelToolCallContext {
  signal?: AbortSignal;
  /**
   * The names of the tool set the call came through (what the model sees), so a tool that names
   * other tools in its result (tool search's meta-tools) uses exactly those names.
   */
  modelNames?: ModelToolNames;
}

/** Where model tools come from: a ToolRegistry fits as it is. */
export interface ToolSource {
  list(filter?: { namespace?: string }): readonly RegisteredTool[];
  call(name: string, args?: Record<string, unknown>, context?: ModelToolCallContext): Promise<ToolCallResult>;
  subscribe(listener: (change: RegistryChange) => void): () => void;
  /**
   * The registry names model names are worked out over, when that is more than the tools listed
   * (optional): a view that lists a subset of a larger set (tool search's `source`) gives the whole
   * set, so a tool has the same model name whether the view lists its neighbours or not.
   */
  namingScope?(): Iterable<string>;
}

/**
 * What the bridges take as their tools: a `ToolRegistry` (tools from any source, MCP or local),
 * anything that holds one, such as an `MCPServerSet` (its `registry`), or a single
 * `MCPToolAdapter` that has discovered its tools (named `serverName/tool`, kept current on
 * tools/list_changed).
 */
export type ToolSourceInput = ToolSource | { readonly registry: ToolSource } | ToolAdapterSource;

/** The one list of what a source may be, for every message that refuses one. */
const SOURCE_KINDS =
  "a ToolRegistry, an MCPToolAdapter, an MCPServerSet (or any object with such a `registry`), or an object with list, call and subscribe methods";

/**
 * The ToolSource behind a {@link ToolSourceInput}. Throws ModelToolsError `INVALID_SOURCE` for
 * anything else, and `SOURCE_NOT_READY` for an adapter that has not discovered its tools yet.
 */
export function resolveToolSource(input: ToolSourceInput): ToolSource {
  const given: unknown = input; // JavaScript callers may pass anything
  if (isToolSource(given)) return given;
  if (isObject(given)) {
    if ("registry" in given && isToolSource(given.registry)) return given.registry;
    if (isToolAdapterSource(given)) return adapterToolSource(given);
  }
  throw new ModelToolsError(
    "INVALID_SOURCE",
    `Cannot take tools from ${describeValue(given)}: a tool source is ${SOURCE_KINDS}.`,
  );
}

function isToolSource(value: unknown): value is ToolSource {
  return (
    isObject(value) &&
    typeof (value as Partial<ToolSource>).list === "function" &&
    typeof (value as Partial<ToolSource>).call === "function" &&
    typeof (value as Partial<ToolSource>).subscribe === "function"
  );
}

function isToolAdapterSource(value: object): value is ToolAdapterSource {
  return (
    typeof (value as Partial<ToolAdapterSource>).serverName === "string" &&
    typeof (value as Partial<ToolAdapterSource>).registerTools === "function"
  );
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object") return typeof value === "undefined" ? "undefined" : `a ${typeof value}`;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name !== "" && name !== "Object" ? `a ${name}` : "this object";
}
