// The package's schema entry, `@mcp-tool-adapter/transport-http/config-schema`: the TypeBox schema
// of an HTTP server config. Kept out of the main entry so that importing the transport never loads
// TypeBox.
export { HttpServerConfigSchema, type HttpServerConfig } from "./config.js";
