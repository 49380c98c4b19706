// The package's config-check entry, `@mcp-tool-adapter/transport-stdio/config`: the check of a
// stdio config without the transport, so the adapter can check its server configs without
// loading child_process or fs. It loads no TypeBox either; the schema has an entry of its own.
export { findStdioConfigIssues, type StdioConfigIssue } from "./config-check.js";
export type { StdioServerConfig } from "./config.js";
