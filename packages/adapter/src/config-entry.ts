// The package's config-check entry, `@mcp-tool-adapter/adapter/config`: the check of a server
// config without the adapter, so a config file is checked (and the CLI spawns its server) before
// the adapter, the MCP SDK and zod are loaded. Like the main entry's, it loads no TypeBox.
export { findConfigIssues } from "./config.js";
export type { HttpMCPServerConfig, MCPServerConfig, MCPTransportType, StdioMCPServerConfig } from "./config.js";
