import type { MCPToolUiCsp, MCPToolUiPermissions } from "@mcp-tool-adapter/adapter";
import type { ToolUi } from "@mcp-tool-adapter/registry";

/**
 * The HTTP channel between the browser host and the server side (`@mcp-tool-adapter/apps/server`):
 * three JSON routes under one base path. Both sides import these names; nothing else defines them.
 */
export const APPS_ROUTES = {
  /** GET: every tool of the server set, as {@link AppsToolList}. */
  tools: "tools",
  /** GET `?tool=<registry name>`: the tool's UI, as {@link AppsUiResponse}. */
  ui: "ui",
  /** POST {@link AppsCallRequest}: calls a tool, answers {@link AppsCallResponse}. */
  call: "call",
} as const;

/** A tool as the browser sees it. */
export interface AppsToolInfo {
  /** The registry's name, `"server/tool"`. */
  readonly name: string;
  readonly server: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** Whether the tool may change something (its capabilities say it writes): a host asks before such a call. */
  readonly writes: boolean;
  /** Its UI reference, if its server declared one. */
  readonly ui?: ToolUi;
}

export interface AppsToolList {
  readonly tools: readonly AppsToolInfo[];
}

/** A tool's HTML interface, with the security metadata its server declared. */
export interface AppsUiResource {
  readonly tool: string;
  readonly uri: string;
  readonly html: string;
  readonly csp?: MCPToolUiCsp;
  readonly permissions?: MCPToolUiPermissions;
  readonly prefersBorder?: boolean;
}

export interface AppsUiResponse {
  readonly resource: AppsUiResource;
}

/**
 * A tool call. `app` names the tool whose UI asks (absent when the host itself calls): an app may
 * only call tools of its own server that are visible to apps.
 */
export interface AppsCallRequest {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  readonly app?: string;
}

/** A tool's result in MCP's shape (`content`, `structuredContent`, `isError`), what an app expects. */
export interface AppsCallResult {
  readonly content: unknown[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

export interface AppsCallResponse {
  readonly result: AppsCallResult;
}

/** What the server side answers on a refused or failed request (HTTP 4xx / 5xx). */
export interface AppsErrorBody {
  readonly error: { readonly code: string; readonly message: string };
}
