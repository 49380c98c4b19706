export { createSchemaValidator } from "./schema-validator.js";
export {
  createSdkJsonSchemaValidator,
  type SdkJsonSchemaValidator,
  type SdkJsonSchemaValidatorResult,
} from "./sdk-validator.js";
export { omitNullOptionals } from "./omit-null-optionals.js";
export { formatValidationErrors, DEFAULT_MAX_FORMATTED_ERRORS, type FormatValidationErrorsOptions } from "./issues.js";
export { SchemaValidationError, type SchemaValidationErrorCode, type SchemaValidationErrorOptions } from "./errors.js";
export { SUPPORTED_SCHEMA_URIS } from "./dialects.js";
export { MAX_SCHEMA_DEPTH } from "./canonical-json.js";
export { MAX_PATTERN_PROGRAM_SIZE } from "./linear-regexp.js";
export type {
  CompiledSchema,
  Logger,
  SchemaValidator,
  SchemaValidatorOptions,
  ValidationIssue,
  ValidationResult,
} from "./types.js";
