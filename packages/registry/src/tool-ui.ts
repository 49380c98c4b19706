/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): a tool may point at an HTML interface
 * (`_meta.ui.resourceUri`, a `ui://` resource) and say who may see it (`_meta.ui.visibility`).
 * The rules live here, beside the registry, because every consumer of registry tools (model
 * tools, the bridges, an apps host) reads them the same way.
 */

/** Who may see a tool: the model (it is in the model's tool list) and / or the app (the UI may call it). */
export type ToolVisibility = "model" | "app";

/** A tool's UI reference, as the server declared it. */
export interface ToolUi {
  /** The `ui://` resource holding the tool's HTML interface; absent for a tool with no UI of its own (an app-only helper). */
  readonly resourceUri?: string;
  /** Who may see the tool; `["model", "app"]` when the server said nothing. */
  readonly visibility: readonly ToolVisibility[];
}

/** The key of a registered tool's `sourceMetadata` that holds its {@link ToolUi}. */
export const TOOL_UI_METADATA_KEY = "ui";

const DEFAULT_VISIBILITY: readonly ToolVisibility[] = Object.freeze(["model", "app"]);
/** The extension's first, flat spelling of the resource URI, still sent by some servers. */
const LEGACY_RESOURCE_URI_KEY = "ui/resourceUri";
const UI_SCHEME = "ui://";

/**
 * The UI reference in a listed tool's `_meta`, or undefined when it has none. A `resourceUri`
 * that is not a `ui://` URI is ignored (hosts render only `ui://` resources); an unknown
 * visibility value is dropped, and a list left empty means the default.
 */
export function parseToolUiMeta(meta: unknown): ToolUi | undefined {
  if (!isObject(meta)) return undefined;
  const ui = isObject(meta.ui) ? meta.ui : undefined;
  const uri = ui?.resourceUri ?? meta[LEGACY_RESOURCE_URI_KEY];
  const resourceUri = typeof uri === "string" && uri.startsWith(UI_SCHEME) ? uri : undefined;
  const visibility = Array.isArray(ui?.visibility)
    ? ui.visibility.filter((entry): entry is ToolVisibility => entry === "model" || entry === "app")
    : [];
  if (resourceUri === undefined && visibility.length === 0) return undefined;
  return Object.freeze({
    ...(resourceUri === undefined ? {} : { resourceUri }),
    visibility: visibility.length === 0 ? DEFAULT_VISIBILITY : Object.freeze([...new Set(visibility)]),
  });
}

/** The UI reference a registered tool carries in its source metadata (see {@link TOOL_UI_METADATA_KEY}). */
export function toolUiOf(tool: { readonly sourceMetadata: Readonly<Record<string, unknown>> }): ToolUi | undefined {
  const ui = tool.sourceMetadata[TOOL_UI_METADATA_KEY];
  return isObject(ui) && Array.isArray(ui.visibility) ? (ui as unknown as ToolUi) : undefined;
}

/** False only for a tool its server meant for the app alone: such a tool never goes into a model's tool list. */
export function isVisibleToModel(tool: { readonly sourceMetadata: Readonly<Record<string, unknown>> }): boolean {
  return toolUiOf(tool)?.visibility.includes("model") ?? true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
