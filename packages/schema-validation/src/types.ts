import type { Logger } from "@mcp-tool-adapter/core";
/** One problem found in a value: where it is, which schema rule it broke, and how. */
export interface ValidationIssue {
  /** JSON Pointer to the offending value ("" is the value itself, "/items/0/name" a nested one). */
  path: string;
  /** The JSON Schema keyword that failed ("type", "required", ...). */
  keyword: string;
  /** Human-readable rule, e.g. "must be string" or "must have required property 'body'". */
  message: string;
}

export interface ValidationResult {
  valid: boolean;
  /** Every problem found (empty when valid). */
  errors: ValidationIssue[];
}

/** A schema compiled once, ready to validate many values. */
export interface CompiledSchema {
  /** Never throws, whatever the value (circular, BigInt, functions, huge depth ...). */
  validate(value: unknown): ValidationResult;
}

export interface SchemaValidator {
  /**
   * Compiles a JSON Schema, or returns the cached compilation of an equal schema.
   * @throws SchemaValidationError with code SCHEMA_INVALID or SCHEMA_REF_UNRESOLVED
   */
  compile(schema: unknown): CompiledSchema;
  /** Compiles (cached) and validates. Never throws: a bad schema gives an invalid result naming the problem. */
  validate(schema: unknown, value: unknown): ValidationResult;
  /** Number of compiled schemas currently cached. */
  readonly cacheSize: number;
}

export type { Logger };

export interface SchemaValidatorOptions {
  /** Receives compile failures, cache evictions and ajv's warnings (e.g. unknown formats). */
  logger?: Logger;
  /** How many compiled schemas to keep; the least recently used is dropped first. Default 1000. */
  maxCacheEntries?: number;
}
