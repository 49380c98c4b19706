import type { McpServer } from "@modelcontextprotocol/server";

export interface V2ServerOptions {
  /** The ttlMs hint of tools/list results (public scope); default none. */
  toolsListTtlMs?: number;
  /** The cacheScope hint given with toolsListTtlMs; default "public". */
  toolsListCacheScope?: "public" | "private";
  /** Names of tools to serve besides the fixed ones (read when an instance is built, so a live array adds tools at runtime). */
  extraTools?: readonly string[];
}

export function createV2Server(options?: V2ServerOptions, era?: "modern" | "legacy"): McpServer;
