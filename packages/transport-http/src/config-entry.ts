// The package's schema-only entry, `@mcp-tool-adapter/transport-http/config`: the config schema
// without the transport, so the adapter can compose it without loading the SDK's HTTP clients.
export { HttpServerConfigSchema, type HttpServerConfig } from "./config.js";
