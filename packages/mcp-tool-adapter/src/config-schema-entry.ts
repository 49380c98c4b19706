// The package's schema entry, `mcp-tool-adapter/config-schema`: the TypeBox schemas of a server
// config, of each transport's fields and of a config file's server entry. Kept out of the main
// entry so that importing the library never loads TypeBox.
export {
  HttpMCPServerConfigSchema,
  MCPServerConfigSchema,
  StdioMCPServerConfigSchema,
} from "@mcp-tool-adapter/adapter/config-schema";
export { HttpServerConfigSchema } from "@mcp-tool-adapter/transport-http/config-schema";
export { StdioServerConfigSchema } from "@mcp-tool-adapter/transport-stdio/config-schema";
export { ConfigFileServerEntrySchema, type ConfigFileServerEntry } from "./config-file/schema.js";
