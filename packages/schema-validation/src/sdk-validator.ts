import { describeError } from "./describe-error.js";
import { formatValidationErrors } from "./issues.js";
import { createSchemaValidator } from "./schema-validator.js";
import type { CompiledSchema, SchemaValidator } from "./types.js";

/** What one check of the SDK's validator returns; the same shape as the SDK's `JsonSchemaValidatorResult`. */
export type SdkJsonSchemaValidatorResult<T> =
  { valid: true; data: T; errorMessage: undefined } | { valid: false; data: undefined; errorMessage: string };

/**
 * The MCP SDK's `jsonSchemaValidator` interface (`@modelcontextprotocol/sdk/validation/types.js`),
 * described here so that this package's types need no SDK installed; TypeScript compares
 * interfaces by shape, so a value of this type is accepted wherever the SDK asks for its own.
 */
export interface SdkJsonSchemaValidator {
  getValidator<T>(schema: object | boolean): (input: unknown) => SdkJsonSchemaValidatorResult<T>;
}

/**
 * The MCP SDK's `jsonSchemaValidator` running on this package's engine, for
 * `new Client(info, { jsonSchemaValidator })`: the SDK's own default skips 2020-12 keywords.
 *
 * A tool whose output schema cannot be compiled does not break `listTools()`; instead each of its
 * results is rejected with the reason the schema is unusable.
 */
export function createSdkJsonSchemaValidator(
  validator: SchemaValidator = createSchemaValidator(),
): SdkJsonSchemaValidator {
  return {
    getValidator<T>(schema: object | boolean): (input: unknown) => SdkJsonSchemaValidatorResult<T> {
      let compiled: CompiledSchema;
      try {
        compiled = validator.compile(schema);
      } catch (error) {
        const errorMessage = `the output schema cannot be used: ${describeError(error)}`;
        return () => ({ valid: false, data: undefined, errorMessage });
      }
      return (input: unknown) => {
        const result = compiled.validate(input);
        return result.valid
          ? { valid: true, data: input as T, errorMessage: undefined }
          : { valid: false, data: undefined, errorMessage: formatValidationErrors(result.errors) };
      };
    },
  };
}
