export type { Logger } from "@mcp-tool-adapter/core";
