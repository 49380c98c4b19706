import { ModelToolsError } from "../model-tools-error.js";
import { toGemini } from "./gemini.js";
import { inlineRefs } from "./inline-refs.js";
import { toOpenAIStrict } from "./openai-strict.js";
import { createArgumentRestorer, type ArgumentRestorer } from "./restore-arguments.js";
import { renameKeysBack, renamePropertyKeys } from "./rename-keys.js";
import { rootObject } from "./root-object.js";
import { asSchemaNode, type SchemaNode } from "./schema-keywords.js";

/** The schema rules of one provider's function calling. */
export type SchemaDialect = "openai-strict" | "openai" | "anthropic" | "gemini";

export const SCHEMA_DIALECTS: readonly SchemaDialect[] = ["openai-strict", "openai", "anthropic", "gemini"];

export interface ConvertedSchema {
  readonly schema: Record<string, unknown>;
  /** True only for "openai-strict" when the schema converted without changing its meaning. */
  readonly strict: boolean;
  /** What was changed or dropped, one readable line each (JSON pointer first). */
  readonly changes: readonly string[];
  /** The model's arguments in the tool's real shape (a null for an optional property -> absent). */
  restoreArguments(args: Record<string, unknown>): Record<string, unknown>;
}

/** A tool's input schema with references inlined, and the restorer for arguments, shared by every dialect. */
export interface PreparedSchema {
  readonly inlined: Record<string, unknown>;
  readonly widened: boolean;
  readonly inlineChanges: readonly string[];
  readonly restoreArguments: ArgumentRestorer;
}

export function prepareSchema(schema: unknown): PreparedSchema {
  const inlineChanges: string[] = [];
  const { schema: inlined, widened } = inlineRefs(asSchemaNode(schema), inlineChanges);
  return { inlined, widened, inlineChanges, restoreArguments: createArgumentRestorer(inlined) };
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
  const changes = [...prepared.inlineChanges];
  const root = rootObject(prepared.inlined, changes);
  const restoreArguments = prepared.restoreArguments;
  switch (dialect) {
    case "gemini":
      return withAcceptedKeys(toGemini(root, changes), changes, restoreArguments);
    case "anthropic":
      return withAcceptedKeys(root, changes, restoreArguments);
    case "openai-strict": {
      const strictChanges: string[] = [];
      const attempt = toOpenAIStrict(root, strictChanges);
      const blockers = prepared.widened
        ? ["a recursive or unresolvable reference was cut", ...attempt.blockers]
        : attempt.blockers;
      if (blockers.length === 0)
        return { schema: attempt.schema, strict: true, changes: [...changes, ...strictChanges], restoreArguments };
      changes.push(`not strict (sent as a plain OpenAI schema): ${blockers.join("; ")}`);
      return { schema: root, strict: false, changes, restoreArguments };
    }
    case "openai":
      return { schema: root, strict: false, changes, restoreArguments };
  }
  throw new ModelToolsError(
    "INVALID_OPTIONS",
    `convertInputSchema: unknown dialect ${JSON.stringify(dialect)}; use one of ${SCHEMA_DIALECTS.join(", ")}`,
  );
}

/** Property keys the provider refuses renamed; the model's arguments get the real keys back before the rest of the restore. */
function withAcceptedKeys(schema: SchemaNode, changes: string[], restoreArguments: ArgumentRestorer): ConvertedSchema {
  const { schema: renamed, renames } = renamePropertyKeys(schema, changes);
  if (renames === undefined) return { schema, strict: false, changes, restoreArguments };
  return {
    schema: renamed,
    strict: false,
    changes,
    restoreArguments: (args) => restoreArguments(renameKeysBack(args, renames) as Record<string, unknown>),
  };
}
