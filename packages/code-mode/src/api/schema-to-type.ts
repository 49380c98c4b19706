import { describeCause } from "@mcp-tool-adapter/core";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import { SUBSCHEMA_KEYWORDS, SUBSCHEMA_LIST_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS } from "@mcp-tool-adapter/model-tools";
import type { compile } from "json-schema-to-typescript";

/** A schema as TypeScript: an inline type, or a root name with the declarations it needs. */
export type SchemaType =
  | { readonly kind: "inline"; readonly type: string }
  | { readonly kind: "declarations"; readonly rootName: string; readonly declarations: string }
  | { readonly kind: "unknown"; readonly reason: string };

type Compile = typeof compile;
let compiler: Promise<Compile> | undefined;

/**
 * json-schema-to-typescript: maintained, covers draft-04 to 2020-12 closely (refs, enums, tuples,
 * unions), writes descriptions as doc comments. It is heavy (its $ref parser and prettier), so it
 * is imported at the first generation, never when the package loads, and run with `format: false`.
 */
function loadCompiler(): Promise<Compile> {
  compiler ??= import("json-schema-to-typescript").then((module) => module.compile);
  return compiler;
}

const COMPILE_OPTIONS = {
  bannerComment: "",
  format: false,
  additionalProperties: false,
  unknownAny: true,
  strictIndexSignatures: true,
  ignoreMinAndMaxItems: true,
  declareExternallyReferenced: true,
  // Never read a file or fetch a URL for a server's `$ref`: such a schema degrades to `unknown`.
  $refOptions: { resolve: { external: false, file: false, http: false } },
} as const;

/** Never throws: a schema the generator cannot express is `unknown`, with the reason. */
export async function schemaToType(schema: unknown, rootName: string): Promise<SchemaType> {
  if (!isRecord(schema)) return { kind: "unknown", reason: "the schema is not an object" };
  let text: string;
  try {
    const compile = await loadCompiler();
    text = await compile(withoutTitles(schema) as Parameters<Compile>[0], rootName, COMPILE_OPTIONS);
  } catch (error) {
    return { kind: "unknown", reason: oneLine(describeCause(error)) };
  }
  const compact = compactComments(text.replaceAll(/^export /gm, "")).trim();
  const declarationCount = compact.match(/^(?:interface|type) /gm)?.length ?? 0;
  if (declarationCount === 1) {
    const inline = inlineRoot(compact, rootName);
    if (inline !== undefined) return { kind: "inline", type: inline };
  }
  return { kind: "declarations", rootName, declarations: compact };
}

/** `interface Input {...}` or `type Input = ...;` as the type alone, its root comment dropped. */
function inlineRoot(text: string, rootName: string): string | undefined {
  const body = text.replace(/^\/\*\*[^]*?\*\/\n/, "");
  const interfaceStart = `interface ${rootName} `;
  if (body.startsWith(interfaceStart)) return body.slice(interfaceStart.length).trim();
  const typeStart = `type ${rootName} = `;
  if (body.startsWith(typeStart)) return body.slice(typeStart.length).replace(/;\s*$/, "").trim();
  return undefined;
}

/** One-line doc comments on one line: the declarations are what a model reads, token by token. */
function compactComments(text: string): string {
  return text.replaceAll(/\/\*\*\n \* ([^\n]*)\n \*\//g, "/** $1 */");
}

function oneLine(text: string): string {
  return text.replaceAll(/\s+/g, " ").replaceAll("*/", "* /").slice(0, 200);
}

/**
 * A copy without `title` keywords: the generator names a type after its title, and two tools'
 * titles would meet; without them nested types are written inline, which is also shorter.
 */
function withoutTitles(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  // Entries, not assignments: a key "__proto__" stays a key and never becomes a prototype.
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== "title")
      .map(([key, value]) => {
        if (SUBSCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
          return [
            key,
            Object.fromEntries(Object.entries(value).map(([name, member]) => [name, withoutTitles(member)])),
          ];
        }
        if (SUBSCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value))
          return [key, value.map((member) => withoutTitles(member))];
        if (SUBSCHEMA_KEYWORDS.has(key)) return [key, withoutTitles(value)];
        return [key, value];
      }),
  );
}
