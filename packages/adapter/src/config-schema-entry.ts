// The package's schema entry, `@mcp-tool-adapter/adapter/config-schema`: the TypeBox schemas of a
// server config. Kept out of the main entry so that importing the adapter, and creating one,
// never loads TypeBox.
export {
  HttpMCPServerConfigSchema,
  MCPServerConfigSchema,
  StdioMCPServerConfigSchema,
  type HttpMCPServerConfig,
  type MCPServerConfig,
  type MCPTransportType,
  type StdioMCPServerConfig,
} from "./config-schema.js";
