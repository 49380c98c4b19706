import { MCP_LOG_LEVELS as PROTOCOL_LOG_LEVELS } from "@mcp-tool-adapter/core/protocol";
import { describeCause } from "./errors.js";
import type {
  MCPLogLevel,
  MCPRequestOptions,
  MCPRequestResult,
  MCPServerLogEntry,
  ServerLogListener,
} from "./protocol-types.js";
import { requestFailure, runRequest, type RequestContext } from "./request-outcome.js";
import type { Session } from "./session.js";
import type { Logger } from "./types.js";

/** The MCP log levels, least to most severe (core's protocol list, typed as the adapter's level). */
export const MCP_LOG_LEVELS: readonly MCPLogLevel[] = PROTOCOL_LOG_LEVELS;

const LOGGER_METHOD: Record<MCPLogLevel, keyof Logger> = {
  debug: "debug",
  info: "info",
  notice: "info",
  warning: "warn",
  error: "error",
  critical: "error",
  alert: "error",
  emergency: "error",
};

const WINDOW_MS = 1_000;
/** Longest quote of a log entry's data in the logger's message line (the whole data goes along as `data`). */
const MAX_MESSAGE_CHARS = 2_000;

export interface ServerLogsContext extends RequestContext {
  readonly logger: Logger | undefined;
  /** Sent with `logging/setLevel` on every connect when set. */
  readonly level: MCPLogLevel | undefined;
  /** Log entries forwarded per second at most; the rest are counted and reported once per second. */
  readonly maxPerSecond: number;
}

/**
 * The server's `notifications/message`: each goes to the adapter's logger (at the matching
 * method, tagged with the server's name) and to the onLog listeners. Forwarding is O(1) per
 * entry and keeps nothing, and at most `maxPerSecond` entries are forwarded, so a server that
 * floods log notifications neither grows memory nor keeps the host busy with its log output.
 */
export class ServerLogs {
  readonly #context: ServerLogsContext;
  readonly #listeners = new Set<ServerLogListener>();
  #windowStart = Number.NEGATIVE_INFINITY;
  #forwardedInWindow = 0;
  #dropped = 0;

  constructor(context: ServerLogsContext) {
    this.#context = context;
  }

  addListener(listener: ServerLogListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Log entries dropped by the rate limit since the adapter was made. */
  droppedTotal = 0;

  /** The server sent notifications/message with `params`. */
  received(params: unknown): void {
    const now = this.#context.now();
    if (now - this.#windowStart >= WINDOW_MS) {
      this.#reportDropped();
      this.#windowStart = now;
      this.#forwardedInWindow = 0;
    }
    if (this.#forwardedInWindow >= this.#context.maxPerSecond) {
      this.#dropped += 1;
      this.droppedTotal += 1;
      return;
    }
    this.#forwardedInWindow += 1;
    const entry = toEntry(this.#context.serverName, params);
    if (entry === undefined) return;
    const { logger, serverName } = this.#context;
    const text = typeof entry.data === "string" ? entry.data : safeJson(entry.data);
    const quoted = text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
    logger?.[LOGGER_METHOD[entry.level]]?.(
      `MCP server "${serverName}" ${entry.level}${entry.logger === undefined ? "" : ` (${entry.logger})`}: ${quoted}`,
      { ...entry },
    );
    for (const listener of [...this.#listeners]) {
      try {
        listener(entry);
      } catch (error) {
        logger?.warn?.(`An onLog listener of MCP server "${serverName}" threw: ${describeCause(error)}`, { error });
      }
    }
  }

  #reportDropped(): void {
    if (this.#dropped === 0) return;
    this.#context.logger?.warn?.(
      `MCP server "${this.#context.serverName}" sent more than ${this.#context.maxPerSecond} log messages in a second; ${this.#dropped} were dropped`,
      { dropped: this.#dropped },
    );
    this.#dropped = 0;
  }

  /** Sends `logging/setLevel`: the server sends entries of `level` and more severe ones. */
  setLevel(session: Session, level: unknown, options: MCPRequestOptions): Promise<MCPRequestResult<null>> {
    const start = this.#context.now();
    if (!MCP_LOG_LEVELS.includes(level as MCPLogLevel)) {
      return Promise.resolve(
        requestFailure(
          this.#context,
          start,
          "validation",
          `validation failed: logging/setLevel needs one of ${MCP_LOG_LEVELS.join(", ")}; got ${describeCause(level)}`,
        ),
      );
    }
    const what = `logging/setLevel to "${String(level)}"`;
    if (session.connection.serverCapabilities?.logging === undefined) {
      return Promise.resolve(
        requestFailure(
          this.#context,
          start,
          "not_supported",
          `not supported: MCP server "${this.#context.serverName}" did not declare the "logging" capability, so ${what} cannot be sent`,
        ),
      );
    }
    return runRequest(
      this.#context,
      session,
      { what, method: "logging/setLevel", params: { level }, options, accept: () => ({ data: null }) },
      start,
    );
  }

  /** A new session is live: send the configured level (servers forget it with the session). */
  async sessionOpened(session: Session): Promise<void> {
    const { level } = this.#context;
    if (level === undefined || session.connection.serverCapabilities?.logging === undefined) return;
    const result = await this.setLevel(session, level, {});
    if (!result.success)
      this.#context.logger?.warn?.(
        `Setting the log level of MCP server "${this.#context.serverName}" to "${level}" failed: ${result.error}`,
      );
  }
}

function toEntry(serverName: string, params: unknown): MCPServerLogEntry | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const { level, logger, data } = params as { level?: unknown; logger?: unknown; data?: unknown };
  // A level the spec does not name is still worth showing; it is logged as "info".
  const known = MCP_LOG_LEVELS.includes(level as MCPLogLevel) ? (level as MCPLogLevel) : "info";
  return Object.freeze({ serverName, level: known, ...(typeof logger === "string" ? { logger } : {}), data });
}

/** JSON.stringify as it behaves: undefined for functions, symbols and undefined. */
const stringifyJson: (value: unknown) => string | undefined = JSON.stringify;

function safeJson(value: unknown): string {
  try {
    return stringifyJson(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Whether `value` is an MCP log level. */
export function isLogLevel(value: unknown): value is MCPLogLevel {
  return MCP_LOG_LEVELS.includes(value as MCPLogLevel);
}
