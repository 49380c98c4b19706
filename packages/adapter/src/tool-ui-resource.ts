import type { ToolUi } from "@mcp-tool-adapter/registry";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import type { MCPRequestOptions, MCPRequestResult, MCPResourceContents } from "./protocol-types.js";

/** Origins a UI declares it needs; an apps host turns them into the app frame's Content-Security-Policy. */
export interface MCPToolUiCsp {
  /** fetch / XHR / WebSocket targets (`connect-src`). */
  readonly connectDomains?: readonly string[];
  /** Scripts, styles, images, fonts, media (`script-src`, `style-src`, ...). */
  readonly resourceDomains?: readonly string[];
  /** Nested frames (`frame-src`). */
  readonly frameDomains?: readonly string[];
  /** `<base>` targets (`base-uri`). */
  readonly baseUriDomains?: readonly string[];
}

/** Browser features a UI asks for (the app frame's `allow` attribute); a host may refuse them. */
export interface MCPToolUiPermissions {
  readonly camera?: object;
  readonly microphone?: object;
  readonly geolocation?: object;
  readonly clipboardWrite?: object;
}

/** A tool's HTML interface, read from its `ui://` resource, with the security metadata the server declared. */
export interface MCPToolUiResource {
  /** The tool it belongs to, and its UI reference. */
  readonly toolName: string;
  readonly ui: ToolUi;
  readonly uri: string;
  readonly mimeType: string;
  readonly html: string;
  /** Size of `html` in UTF-8 bytes. */
  readonly bytes: number;
  readonly csp?: MCPToolUiCsp;
  readonly permissions?: MCPToolUiPermissions;
  /** A dedicated origin the server asked the UI to run on, if any. */
  readonly domain?: string;
  /** Whether the server prefers the host to draw a border around the UI. */
  readonly prefersBorder?: boolean;
}

export interface ReadToolUiOptions extends MCPRequestOptions {
  /** Refuse a UI larger than this many UTF-8 bytes (errorKind "result_too_large"). Default 4 MiB. */
  maxBytes?: number;
  /** Read the resource again even if it is cached. */
  refresh?: boolean;
}

/** Default size limit of a UI resource: single-file app bundles run to a few hundred KB. */
export const DEFAULT_MAX_TOOL_UI_BYTES = 4 * 1024 * 1024;
const HTML_MIME_TYPE = "text/html";

type ReadResource = (uri: string, options: MCPRequestOptions) => Promise<MCPRequestResult<MCPResourceContents>>;
/** Where the cache hears that read contents may be stale (the adapter's ResourceSync). */
type StaleNotices = () => { addStaleListener(listener: (uri: string | undefined) => void): () => void };
type UiFailure = Extract<MCPRequestResult<MCPToolUiResource>, { success: false }>;

/**
 * One server's UI resources: read through the adapter's resource path (deadlines, cancellation,
 * failures as results), checked (HTML, size), and cached by URI, so an app shown many times is
 * read once (until the server says it changed: see `forget`; `refresh` reads again). Only
 * successful reads are cached.
 */
export class ToolUiResources {
  readonly #source: { readResource: ReadResource };
  readonly #cache = new Map<string, Omit<MCPToolUiResource, "toolName" | "ui">>();
  /** Counts `forget` calls: a read that began before one does not fill the cache with what it got. */
  #generation = 0;
  readonly #notices: StaleNotices;
  #following = false;

  /** Reads through `source` (the adapter); `notices` is asked at the first read (the adapter builds its resource handling after this cache). */
  constructor(source: { readResource: ReadResource }, notices: StaleNotices) {
    this.#source = source;
    this.#notices = notices;
  }

  /**
   * Drops what may be stale: `uri` after its resources/updated, everything (undefined) after
   * resources/list_changed, when the server may have replaced or removed a UI. A read already
   * under way when this is called is not cached.
   */
  forget(uri: string | undefined): void {
    this.#generation += 1;
    if (uri === undefined) this.#cache.clear();
    else this.#cache.delete(uri);
  }

  async read(
    tool: { readonly name: string; readonly ui?: ToolUi } | undefined,
    options: ReadToolUiOptions,
  ): Promise<MCPRequestResult<MCPToolUiResource>> {
    if (tool === undefined) return failure("not_found", "no such tool among the discovered tools");
    const { ui } = tool;
    if (ui?.resourceUri === undefined)
      return failure("not_found", `tool "${tool.name}" declares no UI resource (_meta.ui.resourceUri)`);
    const uri = ui.resourceUri;
    if (!this.#following) {
      this.#following = true;
      this.#notices().addStaleListener((stale) => this.forget(stale));
    }
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_TOOL_UI_BYTES;
    const cached = options.refresh === true ? undefined : this.#cache.get(uri);
    if (cached !== undefined) return withinLimit({ ...cached, toolName: tool.name, ui }, maxBytes, 0);
    const { maxBytes: _limit, refresh: _refresh, ...requestOptions } = options;
    const generation = this.#generation;
    const read = await this.#source.readResource(uri, requestOptions);
    if (!read.success) return read;
    const parsed = parseUiContents(uri, read.data);
    if (typeof parsed === "string") return failure("server_error", parsed, read.durationMs);
    if (generation === this.#generation) this.#cache.set(uri, parsed);
    return withinLimit({ ...parsed, toolName: tool.name, ui }, maxBytes, read.durationMs);
  }
}

function withinLimit(
  resource: MCPToolUiResource,
  maxBytes: number,
  durationMs: number,
): MCPRequestResult<MCPToolUiResource> {
  if (resource.bytes > maxBytes)
    return failure(
      "result_too_large",
      `UI resource "${resource.uri}" is ${resource.bytes} bytes, more than maxBytes (${maxBytes}) allows`,
      durationMs,
    );
  return { success: true, data: Object.freeze(resource), error: null, durationMs };
}

/** The HTML and metadata of a `resources/read` answer, or why it is not a usable UI. */
function parseUiContents(uri: string, data: MCPResourceContents): Omit<MCPToolUiResource, "toolName" | "ui"> | string {
  const content = data.contents.find((item) => item.uri === uri) ?? data.contents[0];
  if (content === undefined) return `UI resource "${uri}" came back with no contents`;
  const mimeType = typeof content.mimeType === "string" ? content.mimeType : HTML_MIME_TYPE;
  if (!mimeType.startsWith(HTML_MIME_TYPE))
    return `UI resource "${uri}" is ${mimeType}, not HTML (${HTML_MIME_TYPE};profile=mcp-app)`;
  const html = "text" in content && typeof content.text === "string" ? content.text : decodeBlob(content);
  if (html === undefined) return `UI resource "${uri}" holds neither text nor a base64 blob`;
  const meta = isRecord(content._meta) && isRecord(content._meta.ui) ? content._meta.ui : {};
  return {
    uri,
    mimeType,
    html,
    bytes: new TextEncoder().encode(html).length,
    ...(isRecord(meta.csp) ? { csp: readCsp(meta.csp) } : {}),
    ...(isRecord(meta.permissions) ? { permissions: readPermissions(meta.permissions) } : {}),
    ...(typeof meta.domain === "string" ? { domain: meta.domain } : {}),
    ...(typeof meta.prefersBorder === "boolean" ? { prefersBorder: meta.prefersBorder } : {}),
  };
}

function decodeBlob(content: Record<string, unknown>): string | undefined {
  if (typeof content.blob !== "string") return undefined;
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(content.blob), (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

const CSP_FIELDS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const PERMISSION_FIELDS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;

/** Only string lists of the known directives are kept: a host builds its policy from nothing else. */
function readCsp(csp: Record<string, unknown>): MCPToolUiCsp {
  const kept: Record<string, readonly string[]> = {};
  for (const field of CSP_FIELDS) {
    const value = csp[field];
    if (Array.isArray(value)) kept[field] = Object.freeze(value.filter((entry) => typeof entry === "string"));
  }
  return Object.freeze(kept);
}

function readPermissions(permissions: Record<string, unknown>): MCPToolUiPermissions {
  const kept: Record<string, object> = {};
  for (const field of PERMISSION_FIELDS) if (isRecord(permissions[field])) kept[field] = Object.freeze({});
  return Object.freeze(kept);
}

function failure(errorKind: UiFailure["errorKind"], error: string, durationMs = 0): UiFailure {
  return { success: false, data: null, error, durationMs, errorKind };
}
