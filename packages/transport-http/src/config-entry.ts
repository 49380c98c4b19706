// The package's config-check entry, `@mcp-tool-adapter/transport-http/config`: the check of an
// HTTP server config without the transport, so the adapter can check its server configs without
// loading the SDK's HTTP clients. It loads no TypeBox either; the schema has an entry of its own.
export { findHttpConfigIssues, type HttpConfigIssue } from "./config-check.js";
export type { HttpServerConfig } from "./config.js";
