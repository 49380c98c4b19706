const ERROR_MARKER = Symbol.for("mcp-tool-adapter.error");

export type ModelToolsErrorCode = "UNKNOWN_TOOL" | "INVALID_OPTIONS";

/** A misuse of this package by the calling code (never a model's mistake: those become results). */
export class ModelToolsError extends Error {
  readonly code: ModelToolsErrorCode;

  constructor(code: ModelToolsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ModelToolsError";
    this.code = code;
    Object.defineProperty(this, ERROR_MARKER, { value: true });
  }

  /** True for a ModelToolsError from any copy of this package (instanceof is not enough across copies). */
  static isInstance(value: unknown): value is ModelToolsError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<PropertyKey, unknown>)[ERROR_MARKER] === true &&
      (value as { name?: unknown }).name === "ModelToolsError"
    );
  }
}
