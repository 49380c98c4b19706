import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { describeError } from "./describe-error.js";
import { formatValidationErrors } from "./issues.js";
import { createSchemaValidator } from "./schema-validator.js";
import type { CompiledSchema, SchemaValidator } from "./types.js";

/**
 * The MCP SDK's `jsonSchemaValidator` running on this package's engine, for
 * `new Client(info, { jsonSchemaValidator })`: the SDK's own default skips 2020-12 keywords.
 *
 * A tool whose output schema cannot be compiled does not break `listTools()`; instead each of its
 * results is rejected with the reason the schema is unusable.
 */
export function createSdkJsonSchemaValidator(validator: SchemaValidator = createSchemaValidator()): jsonSchemaValidator {
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
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
