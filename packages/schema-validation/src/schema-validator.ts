import { canonicalSchemaKey } from "./canonical-json.js";
import { compileSchema } from "./compile-schema.js";
import { describeError } from "./describe-error.js";
import { invalidSchema, SchemaValidationError } from "./errors.js";
import { LruCache } from "./lru-cache.js";
import type { CompiledSchema, SchemaValidator, SchemaValidatorOptions, ValidationResult } from "./types.js";

const DEFAULT_MAX_CACHE_ENTRIES = 1000;

/** A compilation outcome; failures are cached too, so a broken schema is not recompiled on every call. */
type CacheEntry = { compiled: CompiledSchema } | { error: SchemaValidationError };

/**
 * A validator that compiles each distinct schema once. Schemas are cached by content (key order
 * does not matter), so tools sharing a schema share one compilation. Treat a schema object as
 * immutable once passed in: its cache key is remembered per object.
 */
export function createSchemaValidator(options: SchemaValidatorOptions = {}): SchemaValidator {
  const { logger } = options;
  const maxEntries = options.maxCacheEntries ?? DEFAULT_MAX_CACHE_ENTRIES;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`maxCacheEntries must be a positive integer, got ${String(maxEntries)}`);
  }
  const cache = new LruCache<string, CacheEntry>(maxEntries, () => {
    logger?.debug?.("schema cache full: dropped the least recently used compiled schema", {
      maxCacheEntries: maxEntries,
    });
  });
  // Serializing a schema costs more than validating with it, so each object's key is remembered.
  const keysBySchemaObject = new WeakMap<object, string>();

  const cacheKeyOf = (schema: unknown): string => {
    const isObject = typeof schema === "object" && schema !== null;
    const known = isObject ? keysBySchemaObject.get(schema) : undefined;
    if (known !== undefined) return known;
    const key = canonicalSchemaKey(schema);
    if (isObject) keysBySchemaObject.set(schema, key);
    return key;
  };

  const lookup = (schema: unknown): CacheEntry => {
    let key: string;
    try {
      key = cacheKeyOf(schema);
    } catch (error) {
      return { error: asSchemaError(error) };
    }
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    let entry: CacheEntry;
    try {
      entry = { compiled: compileSchema(schema, logger) };
      logger?.debug?.("compiled JSON Schema", { cacheSize: cache.size + 1 });
    } catch (error) {
      const schemaError = asSchemaError(error);
      logger?.warn?.("JSON Schema could not be compiled", { code: schemaError.code, reason: schemaError.message });
      entry = { error: schemaError };
    }
    cache.set(key, entry);
    return entry;
  };

  return {
    compile(schema: unknown): CompiledSchema {
      const entry = lookup(schema);
      if ("error" in entry) throw entry.error;
      return entry.compiled;
    },
    validate(schema: unknown, value: unknown): ValidationResult {
      const entry = lookup(schema);
      if ("compiled" in entry) return entry.compiled.validate(value);
      const { error } = entry;
      const keyword = error.code === "SCHEMA_REF_UNRESOLVED" ? "$ref" : "schema";
      return { valid: false, errors: [{ path: "", keyword, message: error.message }] };
    },
    get cacheSize() {
      return cache.size;
    },
  };
}

function asSchemaError(error: unknown): SchemaValidationError {
  return SchemaValidationError.isInstance(error) ? error : invalidSchema(describeError(error), error);
}
