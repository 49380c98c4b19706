import type { McpServer } from "@modelcontextprotocol/server";

export interface V2ServerOptions {
  /** The ttlMs hint of tools/list results (public scope); default none. */
  toolsListTtlMs?: number;
}

export function createV2Server(options?: V2ServerOptions): McpServer;
