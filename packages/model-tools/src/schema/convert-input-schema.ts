import { omitNullOptionals } from "@mcp-tool-adapter/schema-validation";
import { ModelToolsError } from "../model-tools-error.js";
import { toGemini } from "./gemini.js";
import { inlineFoundRefs, needsInlining } from "./inline-refs.js";
import type { ChangeLog } from "./node-conversion.js";
import { block, strictContext, toOpenAIStrict } from "./openai-strict.js";
import { renameKeysBack, renamePropertyKeys, type KeyRenames } from "./rename-keys.js";
import { rootObject } from "./root-object.js";
import { asSchemaNode, type SchemaNode } from "./schema-keywords.js";

/** The schema rules of one provider's function calling. */
export type SchemaDialect = "openai-strict" | "openai" | "anthropic" | "gemini";

const NO_CHANGES: readonly string[] = Object.freeze([]);

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
  /**
   * The model's arguments in the tool's real shape: a null for an optional property that does not
   * accept null is left out (the rule of schema-validation's `omitNullOptionals`).
   */
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

  constructor(schema: unknown) {
    const node = asSchemaNode(schema);
    // Most schemas have no references: no result object for them (thousands are prepared at once).
    if (!needsInlining(node)) {
      this.inlined = node;
      this.widened = false;
      this.inlineChanges = NO_CHANGES;
      return;
    }
    const { schema: inlined, widened, changes } = inlineFoundRefs(node);
    this.inlined = inlined;
    this.widened = widened;
    this.inlineChanges = changes;
  }

  /** The adapter's own rule for a null sent for an optional property (schema-validation's `omitNullOptionals`). */
  restoreArguments(args: Record<string, unknown>): Record<string, unknown> {
    return omitNullOptionals(this.inlined, args);
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
  return convertReporting(prepared, dialect, undefined);
}

/**
 * One conversion; with `changes` given, every change is written there too. Without, no note
 * text and no JSON pointer is built (most of the cost of a conversion that changes a lot).
 */
function convertReporting(prepared: PreparedSchema, dialect: SchemaDialect, changes: ChangeLog): LazilyReportedSchema {
  if (changes !== undefined) changes.push(...prepared.inlineChanges);
  const root = rootObject(prepared.inlined, changes);
  switch (dialect) {
    case "gemini":
      return renamed(prepared, dialect, toGemini(root, changes), changes);
    case "anthropic":
      return renamed(prepared, dialect, root, changes);
    case "openai-strict": {
      // Strict notes go in after the fallback is decided: a schema sent non-strict reports none of them.
      const context = strictContext(changes === undefined ? undefined : []);
      if (prepared.widened) block(context, "a recursive or unresolvable reference was cut");
      const schema = toOpenAIStrict(root, context);
      const blockers = context.blockers;
      if (blockers === undefined) {
        const strictChanges = context.changes;
        if (strictChanges !== undefined) changes?.push(...strictChanges);
        return new LazilyReportedSchema(prepared, dialect, schema, true, undefined);
      }
      changes?.push(`not strict (sent as a plain OpenAI schema): ${blockers.join("; ")}`);
      return new LazilyReportedSchema(prepared, dialect, root, false, undefined);
    }
    default:
      return new LazilyReportedSchema(prepared, dialect, root, false, undefined);
  }
}

/** Property keys the provider refuses renamed; the model's arguments get the real keys back before the rest of the restore. */
function renamed(
  prepared: PreparedSchema,
  dialect: SchemaDialect,
  schema: SchemaNode,
  changes: ChangeLog,
): LazilyReportedSchema {
  const result = renamePropertyKeys(schema, changes);
  return new LazilyReportedSchema(prepared, dialect, result.schema, false, result.renames);
}

/** A class, not an object with closures: thousands are made at once, and few are asked for their changes. */
class LazilyReportedSchema implements ConvertedSchema {
  readonly schema: Record<string, unknown>;
  readonly strict: boolean;
  readonly #prepared: PreparedSchema;
  readonly #dialect: SchemaDialect;
  /** Property keys renamed for the provider (Anthropic, Gemini); undefined when none were. */
  readonly #renames: KeyRenames | undefined;
  #changes: readonly string[] | undefined;

  // The parts one by one, not a result object: one object less per tool, thousands at once.
  constructor(
    prepared: PreparedSchema,
    dialect: SchemaDialect,
    schema: SchemaNode,
    strict: boolean,
    renames: KeyRenames | undefined,
  ) {
    this.#prepared = prepared;
    this.#dialect = dialect;
    this.#renames = renames;
    this.schema = schema;
    this.strict = strict;
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
      // The schema made again here is dropped: only the report is kept.
      convertReporting(this.#prepared, this.#dialect, changes);
      this.#changes = changes;
    }
    return this.#changes;
  }
}
