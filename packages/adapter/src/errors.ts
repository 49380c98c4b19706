import { MCPToolAdapterError, type ConfigIssue } from "@mcp-tool-adapter/core";

// One description of a thrown value for every package: it lives in @mcp-tool-adapter/core.
export { describeCause } from "@mcp-tool-adapter/core";

/** The same type as `ConfigIssue` from `@mcp-tool-adapter/core`, under the name this package gave it first. */
export type MCPConfigIssue = ConfigIssue;

export type MCPAdapterErrorCode =
  | "CONFIG_INVALID"
  | "CONNECTION_FAILED"
  | "NOT_CONNECTED"
  | "DISCOVERY_FAILED"
  | "INVALID_ARGUMENT"
  | "SERVER_UNAVAILABLE";

/** Base class of every error the adapter throws; `code` is stable, messages are for people. */
export class MCPAdapterError extends MCPToolAdapterError<MCPAdapterErrorCode> {
  static override readonly errorName: string = "MCPAdapterError";
}

/** The server config is unusable; `issues` lists every bad field at once. */
export class MCPConfigError extends MCPAdapterError {
  static override readonly errorName: string = "MCPConfigError";
  override readonly code = "CONFIG_INVALID" as const;
  readonly issues: readonly ConfigIssue[];

  constructor(message: string, issues: readonly ConfigIssue[] = [], options?: { cause?: unknown }) {
    super("CONFIG_INVALID", message, options);
    this.issues = Object.freeze(issues.map((issue) => Object.freeze({ ...issue })));
  }
}

/** Connecting (or reconnecting) failed or timed out; nothing was left running. */
export class MCPConnectionError extends MCPAdapterError {
  static override readonly errorName: string = "MCPConnectionError";
  override readonly code = "CONNECTION_FAILED" as const;
  readonly serverName: string;
  readonly transportType: string;

  constructor(message: string, details: { serverName: string; transportType: string; cause?: unknown }) {
    super("CONNECTION_FAILED", message, details);
    this.serverName = details.serverName;
    this.transportType = details.transportType;
  }
}

/** An operation needs a live connection and there is none (never connected, disconnected, or dropped). */
export class MCPNotConnectedError extends MCPAdapterError {
  static override readonly errorName: string = "MCPNotConnectedError";
  override readonly code = "NOT_CONNECTED" as const;
  readonly serverName: string;

  constructor(message: string, details: { serverName: string; cause?: unknown }) {
    super("NOT_CONNECTED", message, details);
    this.serverName = details.serverName;
  }
}

/**
 * The server is marked down (recovery gave up restarting it; the circuit is open): requests fail
 * fast until the cooldown ends and a call probes it, or the host calls reconnect().
 */
export class MCPServerUnavailableError extends MCPAdapterError {
  static override readonly errorName: string = "MCPServerUnavailableError";
  override readonly code = "SERVER_UNAVAILABLE" as const;
  readonly serverName: string;

  constructor(message: string, details: { serverName: string; cause?: unknown }) {
    super("SERVER_UNAVAILABLE", message, details);
    this.serverName = details.serverName;
  }
}

/** tools/list failed: the server answered with an error, or its pagination never ended. */
export class MCPDiscoveryError extends MCPAdapterError {
  static override readonly errorName: string = "MCPDiscoveryError";
  override readonly code = "DISCOVERY_FAILED" as const;
  readonly serverName: string;

  constructor(message: string, details: { serverName: string; cause?: unknown }) {
    super("DISCOVERY_FAILED", message, details);
    this.serverName = details.serverName;
  }
}

/** A method was called with an argument no caller should pass (a programmer error, not bad input from a user). */
export class MCPUsageError extends MCPAdapterError {
  static override readonly errorName: string = "MCPUsageError";
  override readonly code = "INVALID_ARGUMENT" as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super("INVALID_ARGUMENT", message, options);
  }
}

/**
 * `text` without its closing full stop, for quoting a cause mid-sentence ("...: <cause>. Check
 * ..."): causes are often whole sentences, and a second full stop would follow theirs.
 */
export function withoutFullStop(text: string): string {
  return text.replace(/[\s.]+$/u, "");
}

/** Throws MCPUsageError unless `value` is a function: a public method's listener or callback. */
export function assertFunction(value: unknown, method: string, parameter: string): void {
  if (typeof value !== "function") {
    throw new MCPUsageError(
      `${method}() needs a function as its ${parameter}; got ${value === null ? "null" : typeof value}.`,
    );
  }
}
