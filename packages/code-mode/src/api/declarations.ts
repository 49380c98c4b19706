import type { ApiBinding, ApiMethod } from "./api-binding.js";
import { schemaToType, type SchemaType } from "./schema-to-type.js";

/** The typed API a model is shown, as TypeScript declarations. */
export interface ApiDeclarations {
  readonly text: string;
  /** Tools whose input or output schema the generator could not express: typed `unknown` there. */
  readonly degraded: readonly { readonly tool: string; readonly reason: string }[];
}

export interface DeclarationOptions {
  /** Longest tool description kept in a doc comment, characters; default 600. */
  maxDescriptionChars?: number;
}

const DEFAULT_MAX_DESCRIPTION_CHARS = 600;

/**
 * One `declare const <server>: { <tool>(args): Promise<...> }` per server, descriptions as doc
 * comments; types the generator names (a schema's `$defs`) go into a type-only namespace of the
 * same name. A tool without an output schema resolves to the text of its result.
 */
export async function generateDeclarations(
  binding: ApiBinding,
  options: DeclarationOptions = {},
): Promise<ApiDeclarations> {
  const maxDescription = options.maxDescriptionChars ?? DEFAULT_MAX_DESCRIPTION_CHARS;
  const degraded: { tool: string; reason: string }[] = [];
  const groups = new Map<string, { members: string[]; namespaces: string[] }>();
  const typed = await Promise.all(binding.methods.map((method) => typeMethod(method)));
  for (const { method, input, output } of typed) {
    let group = groups.get(method.group);
    if (group === undefined) groups.set(method.group, (group = { members: [], namespaces: [] }));
    const apiName = `${method.group}.${method.method}`;
    for (const type of [input, output])
      if (type?.kind === "unknown") degraded.push({ tool: apiName, reason: type.reason });
    const namespace = `${method.group}.${method.method}`;
    const declared = [input, output]
      .filter((type) => type?.kind === "declarations")
      .map((type) => (type as { declarations: string }).declarations);
    if (declared.length > 0) group.namespaces.push(`namespace ${method.method} {\n${declared.join("\n")}\n}`);
    const argsType = typeText(input, namespace, "unknown");
    const optional = !hasRequired(method.tool.inputSchema);
    const resultType =
      output === undefined
        ? method.tool.source === "mcp"
          ? "string"
          : "unknown"
        : typeText(output, namespace, "unknown");
    group.members.push(
      `${docComment(method.tool.description, maxDescription)}${method.method}(args${optional ? "?" : ""}: ${argsType}): Promise<${resultType}>;`,
    );
  }
  const parts: string[] = [];
  for (const [name, group] of groups) {
    if (group.namespaces.length > 0) parts.push(`declare namespace ${name} {\n${group.namespaces.join("\n")}\n}`);
    parts.push(`declare const ${name}: {\n${group.members.join("\n")}\n};`);
  }
  return { text: parts.join("\n"), degraded };
}

async function typeMethod(
  method: ApiMethod,
): Promise<{ method: ApiMethod; input: SchemaType; output: SchemaType | undefined }> {
  const outputSchema = method.tool.sourceMetadata["outputSchema"];
  const [input, output] = await Promise.all([
    schemaToType(method.tool.inputSchema, "Input"),
    outputSchema === undefined ? undefined : schemaToType(outputSchema, "Output"),
  ]);
  return { method, input, output };
}

function typeText(type: SchemaType | undefined, namespace: string, fallback: string): string {
  if (type === undefined) return fallback;
  if (type.kind === "inline") return type.type;
  if (type.kind === "declarations") return `${namespace}.${type.rootName}`;
  return `unknown /* schema not expressible: ${type.reason} */`;
}

function hasRequired(schema: Record<string, unknown>): boolean {
  const required = schema["required"];
  return Array.isArray(required) && required.length > 0;
}

function docComment(description: string, maxChars: number): string {
  const text = description.trim();
  if (text.length === 0) return "";
  const kept = text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
  const lines = kept.replaceAll("*/", "* /").split(/\r?\n/);
  return lines.length === 1 ? `/** ${lines[0]} */\n` : `/**\n${lines.map((line) => ` * ${line}`).join("\n")}\n */\n`;
}
