import { ModelToolsError } from "../model-tools-error.js";
import { toGemini } from "./gemini.js";
import { inlineRefs } from "./inline-refs.js";
import type { ChangeLog } from "./node-conversion.js";
import { toOpenAIStrict } from "./openai-strict.js";
import { createArgumentRestorer, type ArgumentRestorer } from "./restore-arguments.js";
import { renameKeysBack, renamePropertyKeys, type KeyRenames } from "./rename-keys.js";
import { rootObject } from "./root-object.js";
import { asSchemaNode, type SchemaNode } from "./schema-keywords.js";

/** The schema rules of one provider's function calling. */
export type SchemaDialect = "openai-strict" | "openai" | "anthropic" | "gemini";

export const SCHEMA_DIALECTS: readonly SchemaDialect[] = ["openai-strict", "openai", "anthropic", "gemini"];

export interface ConvertedSchema {
  readonly schema: Record<string, unknown>;
  /** True only for "openai-strict" when the schema converted without changing its meaning. */
  readonly strict: boolean;
  /**
   * What was changed or dropped, one readable line each (JSON pointer first). Worked out on the
   * first read (the schema is converted once more, reporting), since most callers never read it.
   */
  readonly changes: readonly string[];
  /** The model's arguments in the tool's real shape (a null for an optional property -> absent). */
  restoreArguments(args: Record<string, unknown>): Record<string, unknown>;
}

/**
 * A tool's input schema with references inlined, shared by every dialect, with a slot per
 * dialect for its conversion. A class, not an object with closures: thousands are made at once.
 */
export class PreparedSchema {
  readonly inlined: SchemaNode;
  readonly widened: boolean;
  readonly inlineChanges: readonly string[];
  "openai-strict": ConvertedSchema | undefined;
  openai: ConvertedSchema | undefined;
  anthropic: ConvertedSchema | undefined;
  gemini: ConvertedSchema | undefined;
  #restorer: ArgumentRestorer | undefined;

  constructor(schema: unknown) {
    const { schema: inlined, widened, changes } = inlineRefs(asSchemaNode(schema));
    this.inlined = inlined;
    this.widened = widened;
    this.inlineChanges = changes;
  }

  /** Built on the first call: a tool whose arguments never come back pays nothing for it. */
  restoreArguments(args: Record<string, unknown>): Record<string, unknown> {
    return (this.#restorer ??= createArgumentRestorer(this.inlined))(args);
  }
}

export function prepareSchema(schema: unknown): PreparedSchema {
  return new PreparedSchema(schema);
}

/** The conversion for one dialect, made once and kept on the prepared schema. */
export function convertedFor(prepared: PreparedSchema, dialect: SchemaDialect): ConvertedSchema {
  // Only a known dialect is read from the slots (untyped code might pass "inlined"); others throw in convertPrepared.
  const cached = SCHEMA_DIALECTS.includes(dialect) ? prepared[dialect] : undefined;
  if (cached !== undefined) return cached;
  const converted = convertPrepared(prepared, dialect);
  prepared[dialect] = converted;
  return converted;
}

/**
 * Converts a tool's input schema (JSON Schema draft-07 or 2020-12) for one provider. Never throws:
 * what a provider cannot express goes into descriptions and `changes`; "openai-strict" falls back
 * to the plain "openai" form with `strict: false` when strictness would change the meaning.
 */
export function convertInputSchema(schema: Record<string, unknown>, dialect: SchemaDialect): ConvertedSchema {
  return convertPrepared(prepareSchema(schema), dialect);
}

export function convertPrepared(prepared: PreparedSchema, dialect: SchemaDialect): ConvertedSchema {
  if (!SCHEMA_DIALECTS.includes(dialect)) {
    throw new ModelToolsError(
      "INVALID_OPTIONS",
      `convertInputSchema: unknown dialect ${JSON.stringify(dialect)}; use one of ${SCHEMA_DIALECTS.join(", ")}`,
    );
  }
  const conversion = convertReporting(prepared, dialect, undefined);
  return new LazilyReportedSchema(prepared, dialect, conversion);
}

interface Conversion {
  readonly schema: SchemaNode;
  readonly strict: boolean;
  /** Property keys renamed for the provider (Anthropic, Gemini); undefined when none were. */
  readonly renames: KeyRenames | undefined;
}

/**
 * One conversion; with `changes` given, every change is written there too. Without, no note
 * text and no JSON pointer is built (most of the cost of a conversion that changes a lot).
 */
function convertReporting(prepared: PreparedSchema, dialect: SchemaDialect, changes: ChangeLog): Conversion {
  if (changes !== undefined) changes.push(...prepared.inlineChanges);
  const root = rootObject(prepared.inlined, changes);
  switch (dialect) {
    case "gemini":
      return renamed(toGemini(root, changes), changes);
    case "anthropic":
      return renamed(root, changes);
    case "openai-strict": {
      const blockers: string[] = [];
      if (prepared.widened) blockers.push("a recursive or unresolvable reference was cut");
      // Strict notes go in after the fallback is decided: a schema sent non-strict reports none of them.
      const strictChanges: string[] | undefined = changes === undefined ? undefined : [];
      const schema = toOpenAIStrict(root, strictChanges, blockers);
      if (blockers.length === 0) {
        if (strictChanges !== undefined) changes?.push(...strictChanges);
        return { schema, strict: true, renames: undefined };
      }
      changes?.push(`not strict (sent as a plain OpenAI schema): ${blockers.join("; ")}`);
      return { schema: root, strict: false, renames: undefined };
    }
    default:
      return { schema: root, strict: false, renames: undefined };
  }
}

/** Property keys the provider refuses renamed; the model's arguments get the real keys back before the rest of the restore. */
function renamed(schema: SchemaNode, changes: ChangeLog): Conversion {
  const result = renamePropertyKeys(schema, changes);
  return { schema: result.schema, strict: false, renames: result.renames };
}

/** A class, not an object with closures: thousands are made at once, and few are asked for their changes. */
class LazilyReportedSchema implements ConvertedSchema {
  readonly schema: Record<string, unknown>;
  readonly strict: boolean;
  readonly #prepared: PreparedSchema;
  readonly #dialect: SchemaDialect;
  readonly #renames: KeyRenames | undefined;
  #changes: readonly string[] | undefined;

  constructor(prepared: PreparedSchema, dialect: SchemaDialect, conversion: Conversion) {
    this.#prepared = prepared;
    this.#dialect = dialect;
    this.#renames = conversion.renames;
    this.schema = conversion.schema;
    this.strict = conversion.strict;
  }

  restoreArguments(args: Record<string, unknown>): Record<string, unknown> {
    const renames = this.#renames;
    return this.#prepared.restoreArguments(
      renames === undefined ? args : (renameKeysBack(args, renames) as Record<string, unknown>),
    );
  }

  get changes(): readonly string[] {
    if (this.#changes === undefined) {
      const changes: string[] = [];
      convertReporting(this.#prepared, this.#dialect, changes);
      this.#changes = changes;
    }
    return this.#changes;
  }
}
