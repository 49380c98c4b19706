// The package's schema-only entry, `@mcp-tool-adapter/transport-stdio/config`: the config schema
// without the transport, so the adapter can compose it without loading child_process or fs.
export { StdioServerConfigSchema, type StdioServerConfig } from "./config.js";
