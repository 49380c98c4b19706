import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

export type StdioTransportErrorCode =
  /** The configuration is not a valid StdioServerConfig. */
  | "CONFIG_INVALID"
  /** The process could not be started (command not found, not executable, bad cwd). */
  | "SPAWN_FAILED"
  /** The server process exited (or was killed) while the transport was open. */
  | "SERVER_EXITED"
  /** A stdout line was longer than `maxMessageBytes`; it was dropped. */
  | "MESSAGE_TOO_LARGE"
  /** A stdout line was not JSON, or not a JSON-RPC message; it was skipped. */
  | "INVALID_MESSAGE"
  /** Writing to the server's stdin failed (for example EPIPE after it died). */
  | "WRITE_FAILED"
  /** `send()` was called before `start()`. */
  | "NOT_STARTED"
  /** `start()` was called twice. */
  | "ALREADY_STARTED"
  /** `send()` was called after the transport closed. */
  | "TRANSPORT_CLOSED"
  /** The `processFamily` option asks for something this system cannot do (e.g. "tagged" without /proc). */
  | "PROCESS_FAMILY_UNSUPPORTED";

export interface StdioTransportErrorDetails {
  cause?: unknown;
  command?: string;
  pid?: number;
  stderrTail?: string;
  exitCode?: number | null;
  signal?: string | null;
}

/** Every failure of the stdio transport; `code` is stable, the message says what to do. */
export class StdioTransportError extends MCPToolAdapterError<StdioTransportErrorCode> {
  static override readonly errorName: string = "StdioTransportError";
  readonly command?: string;
  readonly pid?: number;
  /** The last bytes the server wrote to stderr before this error, when any. */
  readonly stderrTail?: string;
  readonly exitCode?: number | null;
  readonly signal?: string | null;

  constructor(code: StdioTransportErrorCode, message: string, details: StdioTransportErrorDetails = {}) {
    super(code, message, details);
    if (details.command !== undefined) this.command = details.command;
    if (details.pid !== undefined) this.pid = details.pid;
    if (details.stderrTail !== undefined) this.stderrTail = details.stderrTail;
    if (details.exitCode !== undefined) this.exitCode = details.exitCode;
    if (details.signal !== undefined) this.signal = details.signal;
  }
}
