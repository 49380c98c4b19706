import type { MCPEngineConnection } from "@mcp-tool-adapter/core";
import type { ToolCatalog } from "./tool-catalog.js";

/** A request the adapter has in flight; `close` settles it at once when the connection goes away. */
export interface PendingRequest {
  close(why: string): void;
}

/** One connection of the adapter's engine, and what the adapter keeps about it. Never reused after it closes. */
export interface Session {
  readonly connection: MCPEngineConnection;
  state: "open" | "closed";
  readonly pending: Set<PendingRequest>;
  discovery: Promise<ToolCatalog> | undefined;
  refresh: Promise<void> | undefined;
  refreshAgain: boolean;
}

/** Thrown by a pending request when its session closed under it, carrying why. */
export class ConnectionLost extends Error {
  readonly why: string;
  /** True when the request was never sent: the session had closed before it. */
  readonly beforeSend: boolean;
  constructor(why: string, cause: unknown, beforeSend = false) {
    super(`connection closed: ${why}`, { cause });
    this.name = "ConnectionLost";
    this.why = why;
    this.beforeSend = beforeSend;
  }
}

/** Settles every request in flight on `session` with a ConnectionLost carrying `why`. */
export function settlePending(session: Session, why: string): void {
  for (const pending of [...session.pending]) pending.close(why);
  session.connection.abandonRequests?.(new ConnectionLost(why, undefined));
}

/** Read through a call: the flag changes while the refresh loop awaits. */
export function refreshRequested(session: Session): boolean {
  return session.refreshAgain;
}
