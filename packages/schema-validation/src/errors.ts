const ERROR_MARKER = Symbol.for("mcp-tool-adapter.error");

export type SchemaValidationErrorCode = "SCHEMA_INVALID" | "SCHEMA_REF_UNRESOLVED";

export interface SchemaValidationErrorOptions {
  /** The `$ref` that could not be resolved (SCHEMA_REF_UNRESOLVED only). */
  ref?: string;
  cause?: unknown;
}

/** A JSON Schema that cannot be compiled: malformed, unsupported, or with a `$ref` that cannot be resolved locally. */
export class SchemaValidationError extends Error {
  override readonly name = "SchemaValidationError";
  readonly code: SchemaValidationErrorCode;
  /** The `$ref` that could not be resolved (SCHEMA_REF_UNRESOLVED only); absent otherwise. */
  declare readonly ref?: string;
  readonly [ERROR_MARKER] = true;

  constructor(code: SchemaValidationErrorCode, message: string, options: SchemaValidationErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.ref !== undefined) Object.defineProperty(this, "ref", { value: options.ref, enumerable: true });
  }

  /** True for any SchemaValidationError, even one from another copy of this package. */
  static isInstance(value: unknown): value is SchemaValidationError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[ERROR_MARKER] === true &&
      (value as { name?: unknown }).name === "SchemaValidationError"
    );
  }
}

export function invalidSchema(reason: string, cause?: unknown): SchemaValidationError {
  return new SchemaValidationError(
    "SCHEMA_INVALID",
    `Invalid JSON Schema: ${reason}. Fix the schema; values cannot be validated against it.`,
    { cause },
  );
}
