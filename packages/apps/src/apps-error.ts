import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

export type AppsErrorCode =
  /** A request of the HTTP channel is malformed or names something that does not exist. */
  | "BAD_REQUEST"
  | "TOOL_NOT_FOUND"
  /** The tool has no UI, or its UI could not be read. */
  | "UI_UNAVAILABLE"
  /** An app asked for a tool it may not call (another server's, or one hidden from apps). */
  | "CALL_REFUSED"
  /** The server side answered something the browser client cannot use. */
  | "CHANNEL_FAILED"
  /** The app frame did not start or stopped (sandbox not ready in time, closed). */
  | "APP_FAILED";

/** Every error of `@mcp-tool-adapter/apps`; `code` is stable. */
export class AppsError extends MCPToolAdapterError<AppsErrorCode> {
  static override readonly errorName: string = "AppsError";
}
