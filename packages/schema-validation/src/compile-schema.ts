import type { AnySchema, ValidateFunction } from "ajv";
import { compileWithAjv, isReservedSchemaId } from "./ajv-engines.js";
import { describeError } from "./describe-error.js";
import { resolveDialect } from "./dialects.js";
import { invalidSchema, SchemaValidationError } from "./errors.js";
import { compileSimpleSchema } from "./interpret-simple-schema.js";
import { toValidationIssues, uncheckable } from "./issues.js";
import { isSimpleSchema } from "./simple-schema.js";
import type { CompiledSchema, Logger, ValidationResult } from "./types.js";

export interface CompileSchemaOptions {
  /**
   * Interpret schemas of the simple subset (see simple-schema.ts) instead of generating code
   * with ajv. Default true; tests turn it off to compare both paths.
   */
  interpretSimpleSchemas?: boolean;
}

/**
 * Compiles one JSON Schema (object or boolean) with the engine its `$schema` asks for.
 * @throws SchemaValidationError (SCHEMA_INVALID | SCHEMA_REF_UNRESOLVED)
 */
export function compileSchema(schema: unknown, logger?: Logger, options: CompileSchemaOptions = {}): CompiledSchema {
  if (typeof schema === "boolean") return wrap(compileChecked("2020-12", schema, logger));
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw invalidSchema(`a schema must be an object or a boolean, got ${describeType(schema)}`);
  }
  const record = schema as Record<string, unknown>;
  const dialect = resolveDialect(record.$schema);
  if (typeof record.$id === "string" && isReservedSchemaId(dialect.engine, record.$id)) {
    throw invalidSchema(`"$id" ${record.$id} is the id of a meta-schema; give the schema its own $id or none`);
  }
  if (record.$async === true) {
    throw invalidSchema(`"$async" schemas are not supported; remove "$async" so validation is synchronous`);
  }
  // Most tool schemas are this simple; generating and parsing code for them costs far more than
  // interpreting them. The recogniser admits only meta-schema-valid values, so nothing ajv would
  // reject takes this path.
  if (options.interpretSimpleSchemas !== false && isSimpleSchema(record)) return compileSimpleSchema(record);
  // ajv looks the meta-schema up by the exact `$schema` string, so spelling variants are normalized.
  const normalized =
    record.$schema === undefined || record.$schema === dialect.metaSchemaId
      ? record
      : { ...record, $schema: dialect.metaSchemaId };
  return wrap(compileChecked(dialect.engine, normalized, logger));
}

function compileChecked(
  engine: Parameters<typeof compileWithAjv>[0],
  schema: AnySchema,
  logger: Logger | undefined,
): ValidateFunction {
  try {
    return compileWithAjv(engine, schema, logger);
  } catch (error) {
    throw toSchemaError(error);
  }
}

function toSchemaError(error: unknown): SchemaValidationError {
  if (SchemaValidationError.isInstance(error)) return error;
  if (error instanceof Error && "missingRef" in error && typeof error.missingRef === "string") {
    const ref = error.missingRef;
    return new SchemaValidationError(
      "SCHEMA_REF_UNRESOLVED",
      `JSON Schema $ref "${ref}" cannot be resolved: only references inside the schema itself ` +
        `(such as "#/$defs/name" or "#/definitions/name") are followed and nothing is fetched; inline the referenced schema.`,
      { ref, cause: error },
    );
  }
  return invalidSchema(tidyAjvReason(describeError(error)), error);
}

/** ajv words meta-schema failures as "schema is invalid: data/type must ..."; say "/type must ..." instead. */
function tidyAjvReason(reason: string): string {
  return reason
    .replace(/^schema is invalid: /, "")
    .replace(/(^|, )data\//g, "$1/")
    .replace(/(^|, )data /g, "$1the schema ");
}

function wrap(ajvValidate: ValidateFunction): CompiledSchema {
  return {
    validate(value: unknown): ValidationResult {
      let valid: boolean;
      try {
        valid = ajvValidate(value);
      } catch (error) {
        return { valid: false, errors: [uncheckable(error)] };
      }
      return valid ? { valid: true, errors: [] } : { valid: false, errors: toValidationIssues(ajvValidate.errors) };
    },
  };
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
