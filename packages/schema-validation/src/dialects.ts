import { invalidSchema } from "./errors.js";

/** The ajv engine that validates a dialect. */
export type Engine = "draft-07" | "2019-09" | "2020-12";

export interface Dialect {
  engine: Engine;
  /** The meta-schema id as the engine knows it (what `$schema` is rewritten to). */
  metaSchemaId: string;
}

const DRAFT_2020_12: Dialect = { engine: "2020-12", metaSchemaId: "https://json-schema.org/draft/2020-12/schema" };

// Keyed by the `$schema` URI without scheme and trailing "#": servers write both http and https.
const KNOWN_DIALECTS = new Map<string, Dialect>([
  ["json-schema.org/draft/2020-12/schema", DRAFT_2020_12],
  [
    "json-schema.org/draft/2019-09/schema",
    { engine: "2019-09", metaSchemaId: "https://json-schema.org/draft/2019-09/schema" },
  ],
  ["json-schema.org/draft-07/schema", { engine: "draft-07", metaSchemaId: "http://json-schema.org/draft-07/schema#" }],
  // Draft-06 is a subset of draft-07 (which only added keywords), so the draft-07 engine runs it.
  ["json-schema.org/draft-06/schema", { engine: "draft-07", metaSchemaId: "http://json-schema.org/draft-06/schema#" }],
]);

const UNSUPPORTED_DRAFTS = new Set(["json-schema.org/draft-04/schema", "json-schema.org/draft-03/schema"]);

export const SUPPORTED_SCHEMA_URIS: readonly string[] = [...KNOWN_DIALECTS.values()].map((d) => d.metaSchemaId);

/**
 * The dialect a schema declares through `$schema`. Absent means 2020-12, the MCP specification's default.
 * @throws SchemaValidationError (SCHEMA_INVALID) for a draft ajv 8 cannot run or an unknown `$schema`
 */
export function resolveDialect(declared: unknown): Dialect {
  if (declared === undefined) return DRAFT_2020_12;
  if (typeof declared !== "string") {
    throw invalidSchema(`"$schema" must be a URI string, got ${JSON.stringify(declared)}`);
  }
  const normalized = declared
    .trim()
    .replace(/^https?:\/\//, "")
    .replace(/#$/, "");
  const dialect = KNOWN_DIALECTS.get(normalized);
  if (dialect !== undefined) return dialect;
  const supported = `declare one of ${SUPPORTED_SCHEMA_URIS.join(", ")} or omit "$schema" for 2020-12`;
  if (UNSUPPORTED_DRAFTS.has(normalized)) {
    throw invalidSchema(`"$schema" ${declared} is an older draft this validator does not run; ${supported}`);
  }
  throw invalidSchema(`"$schema" ${declared} is not a known JSON Schema dialect; ${supported}`);
}
