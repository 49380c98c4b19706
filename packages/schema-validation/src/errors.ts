import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

export type SchemaValidationErrorCode = "SCHEMA_INVALID" | "SCHEMA_REF_UNRESOLVED";

export interface SchemaValidationErrorOptions {
  /** The `$ref` that could not be resolved (SCHEMA_REF_UNRESOLVED only). */
  ref?: string;
  cause?: unknown;
}

/** A JSON Schema that cannot be compiled: malformed, unsupported, or with a `$ref` that cannot be resolved locally. */
export class SchemaValidationError extends MCPToolAdapterError<SchemaValidationErrorCode> {
  static override readonly errorName: string = "SchemaValidationError";
  /** The `$ref` that could not be resolved (SCHEMA_REF_UNRESOLVED only); absent otherwise. */
  declare readonly ref?: string;

  constructor(code: SchemaValidationErrorCode, message: string, options: SchemaValidationErrorOptions = {}) {
    super(code, message, options);
    if (options.ref !== undefined) Object.defineProperty(this, "ref", { value: options.ref, enumerable: true });
  }
}

export function invalidSchema(reason: string, cause?: unknown): SchemaValidationError {
  return new SchemaValidationError(
    "SCHEMA_INVALID",
    `Invalid JSON Schema: ${reason}. Fix the schema; values cannot be validated against it.`,
    { cause },
  );
}
