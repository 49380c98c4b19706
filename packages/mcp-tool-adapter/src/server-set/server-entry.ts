import type {
  HttpMCPServerConfig,
  MCPLogLevel,
  MCPRoot,
  RecoveryOptions,
  StdioMCPServerConfig,
} from "@mcp-tool-adapter/adapter";
import type { CapabilityOverrides } from "@mcp-tool-adapter/capability-inference";
import type { ServerAuth } from "./server-auth.js";

/** Which of a server's tools to register, and capability overrides by MCP tool name. */
export interface ServerToolsConfig {
  /** Exact names or globs (`get_*`); absent or empty keeps every tool. */
  include?: string[];
  /** Exact names or globs; wins over include. */
  exclude?: string[];
  /** Per MCP tool name: capability fields that win over annotations and name heuristics. */
  overrides?: Record<string, CapabilityOverrides>;
}

/** Fields every server entry may carry on top of its transport config. */
export interface ServerEntryOptions {
  tools?: ServerToolsConfig;
  /** Deadline for this server's connect (spawn / HTTP session and handshake); wins over the set's default. */
  connectTimeoutMs?: number;
  /**
   * Deadline of each tool call to this server that sets none itself (the adapter's
   * `defaultTimeoutMs`); wins over the set's `callTimeoutMs`. Default 60000.
   */
  callTimeoutMs?: number;
  /** The folders (file:// URIs) this server may work in; declares the roots capability to it. */
  roots?: MCPRoot[];
  /** Asks the server for log messages of this level and above on every connect. */
  logLevel?: MCPLogLevel;
  /** How an HTTP server authorizes (OAuth login or machine credentials); see docs/auth.md. */
  auth?: ServerAuth;
  /** Recovery for this server (wins over the set's `recovery`): `true` for the defaults, `false` for none. */
  recovery?: boolean | RecoveryOptions;
}

/**
 * One server of an MCPServerSet: the adapter's server config without `name` (the key in the
 * set's map is the name, and the registry namespace of its tools), plus tool selection.
 */
export type ServerEntry =
  (Omit<StdioMCPServerConfig, "name"> & ServerEntryOptions) | (Omit<HttpMCPServerConfig, "name"> & ServerEntryOptions);

/** Servers by name, in the order they were declared. */
export type ServerEntries = Readonly<Record<string, ServerEntry>>;
