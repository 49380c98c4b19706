import { MCPToolAdapterError, type AUTH_FAILED, type AUTH_REQUIRED } from "@mcp-tool-adapter/core";

export type MCPAuthErrorCode =
  /** No usable credentials: log in (the message says how). */
  | typeof AUTH_REQUIRED
  /** The authorization failed or the stored credentials were rejected; the message says why and what to do. */
  | typeof AUTH_FAILED
  /** The token store is readable by other users (or unusable); nothing was read from it or written to it. */
  | "AUTH_STORE_INSECURE"
  /** The auth options are unusable (a non-loopback redirect, a client id that is not a URL, ...). */
  | "AUTH_CONFIG_INVALID";

/** Every failure of @mcp-tool-adapter/oauth. Messages never carry tokens, codes, secrets or client assertions. */
export class MCPAuthError extends MCPToolAdapterError<MCPAuthErrorCode> {
  static override readonly errorName: string = "MCPAuthError";
}
