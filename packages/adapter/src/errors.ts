const ERROR_MARKER = Symbol.for("mcp-tool-adapter.error");

/** One problem found in a server config: where (a JSON pointer, "" = the config itself) and what. */
export interface MCPConfigIssue {
  path: string;
  message: string;
}

export type MCPAdapterErrorCode = "CONFIG_INVALID" | "CONNECTION_FAILED" | "NOT_CONNECTED" | "DISCOVERY_FAILED" | "INVALID_ARGUMENT";

/** Base class of every error the adapter throws; `code` is stable, messages are for people. */
export class MCPAdapterError extends Error {
  readonly code: MCPAdapterErrorCode;
  readonly [ERROR_MARKER] = true;

  constructor(code: MCPAdapterErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MCPAdapterError";
    this.code = code;
  }

  /** True for errors of this class from any copy of the package (a Symbol.for marker, not instanceof). */
  static isInstance(value: unknown): value is MCPAdapterError {
    return hasMarker(value) && typeof (value as { code?: unknown }).code === "string" && isAdapterCode((value as { code: string }).code);
  }
}

/** The server config is unusable; `issues` lists every bad field at once. */
export class MCPConfigError extends MCPAdapterError {
  override readonly code = "CONFIG_INVALID" as const;
  readonly issues: readonly MCPConfigIssue[];

  constructor(message: string, issues: readonly MCPConfigIssue[] = [], options?: { cause?: unknown }) {
    super("CONFIG_INVALID", message, options);
    this.name = "MCPConfigError";
    this.issues = Object.freeze(issues.map((issue) => Object.freeze({ ...issue })));
  }

  static override isInstance(value: unknown): value is MCPConfigError {
    return hasCode(value, "CONFIG_INVALID");
  }
}

/** Connecting (or reconnecting) failed or timed out; nothing was left running. */
export class MCPConnectionError extends MCPAdapterError {
  override readonly code = "CONNECTION_FAILED" as const;
  readonly serverName: string;
  readonly transportType: string;

  constructor(message: string, details: { serverName: string; transportType: string; cause?: unknown }) {
    super("CONNECTION_FAILED", message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "MCPConnectionError";
    this.serverName = details.serverName;
    this.transportType = details.transportType;
  }

  static override isInstance(value: unknown): value is MCPConnectionError {
    return hasCode(value, "CONNECTION_FAILED");
  }
}

/** An operation needs a live connection and there is none (never connected, disconnected, or dropped). */
export class MCPNotConnectedError extends MCPAdapterError {
  override readonly code = "NOT_CONNECTED" as const;
  readonly serverName: string;

  constructor(message: string, details: { serverName: string; cause?: unknown }) {
    super("NOT_CONNECTED", message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "MCPNotConnectedError";
    this.serverName = details.serverName;
  }

  static override isInstance(value: unknown): value is MCPNotConnectedError {
    return hasCode(value, "NOT_CONNECTED");
  }
}

/** tools/list failed: the server answered with an error, or its pagination never ended. */
export class MCPDiscoveryError extends MCPAdapterError {
  override readonly code = "DISCOVERY_FAILED" as const;
  readonly serverName: string;

  constructor(message: string, details: { serverName: string; cause?: unknown }) {
    super("DISCOVERY_FAILED", message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "MCPDiscoveryError";
    this.serverName = details.serverName;
  }

  static override isInstance(value: unknown): value is MCPDiscoveryError {
    return hasCode(value, "DISCOVERY_FAILED");
  }
}

/** A method was called with an argument no caller should pass (a programmer error, not bad input from a user). */
export class MCPUsageError extends MCPAdapterError {
  override readonly code = "INVALID_ARGUMENT" as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super("INVALID_ARGUMENT", message, options);
    this.name = "MCPUsageError";
  }

  static override isInstance(value: unknown): value is MCPUsageError {
    return hasCode(value, "INVALID_ARGUMENT");
  }
}

const ADAPTER_CODES: ReadonlySet<string> = new Set<MCPAdapterErrorCode>([
  "CONFIG_INVALID",
  "CONNECTION_FAILED",
  "NOT_CONNECTED",
  "DISCOVERY_FAILED",
  "INVALID_ARGUMENT",
]);

function isAdapterCode(code: string): boolean {
  return ADAPTER_CODES.has(code);
}

function hasMarker(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[ERROR_MARKER] === true;
}

function hasCode(value: unknown, code: MCPAdapterErrorCode): boolean {
  return hasMarker(value) && (value as { code?: unknown }).code === code;
}

/** JSON.stringify as it behaves: undefined for functions, symbols and undefined. */
const stringifyJson: (value: unknown) => string | undefined = JSON.stringify;

/** A short, single-line description of any thrown value, for error messages. */
export function describeCause(cause: unknown): string {
  if (cause instanceof Error) return cause.message === "" ? cause.name : cause.message;
  if (typeof cause === "string") return cause;
  try {
    const json = stringifyJson(cause);
    return json ?? typeof cause;
  } catch {
    return typeof cause;
  }
}

/**
 * `text` without its closing full stop, for quoting a cause mid-sentence ("...: <cause>. Check
 * ..."): causes are often whole sentences, and a second full stop would follow theirs.
 */
export function withoutFullStop(text: string): string {
  return text.replace(/[\s.]+$/u, "");
}
