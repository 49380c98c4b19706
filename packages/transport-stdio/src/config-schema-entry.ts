// The package's schema entry, `@mcp-tool-adapter/transport-stdio/config-schema`: the TypeBox
// schema of a stdio config. Kept out of the main entry so that importing or creating a transport
// never loads TypeBox.
export { StdioServerConfigSchema, type StdioServerConfig } from "./config.js";
