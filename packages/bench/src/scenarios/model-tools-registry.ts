import { toAnthropicTools, toGeminiFunctionDeclarations, toOpenAITools } from "@mcp-tool-adapter/model-tools";
import { ToolRegistry, type ToolCallResult, type ToolDefinition } from "@mcp-tool-adapter/registry";
import { createSchemaValidator, type CompiledSchema } from "@mcp-tool-adapter/schema-validation";
import { generatedTool } from "../servers/generated-tools.js";

/** The namespace the generated tools are registered under. */
export const NAMESPACE = "gen";

/** A text result of typical size, the same object every call, so only the bridge's work differs. */
export const TEXT_RESULT: ToolCallResult = Object.freeze({
  success: true,
  data: Object.freeze({
    content: Object.freeze([
      Object.freeze({
        type: "text",
        text: "Found 3 open issues assigned to you: #12 crash on start, #40 slow search, #41 typo in README.",
      }),
    ]),
  }),
});

/**
 * Tools registered as the adapter registers MCP tools: source "mcp", and a handler that validates
 * the arguments against the tool's schema before answering, as `invoke` does before sending.
 * So "invoke" below includes that validation, and the bridges do not repeat it.
 */
export function filledRegistry(size: number): ToolRegistry {
  const registry = new ToolRegistry();
  const validator = createSchemaValidator();
  const definitions: ToolDefinition[] = Array.from({ length: size }, (_, index) => {
    const tool = generatedTool(index);
    let compiled: CompiledSchema | undefined;
    return {
      name: tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema,
      capabilities: { readOnly: false, writes: true },
      source: "mcp",
      sourceMetadata: {},
      checkpointable: false,
      handler: (args) => {
        compiled ??= validator.compile(tool.inputSchema);
        return compiled.validate(args).valid
          ? TEXT_RESULT
          : { success: false, errorKind: "validation", error: "invalid arguments" };
      },
    };
  });
  registry.replaceNamespace(NAMESPACE, definitions);
  return registry;
}

/** One provider format a registry is converted to (issue 16's four, issue 36's cold conversions). */
export interface ConversionFormat {
  readonly key: "openai-strict" | "openai-responses" | "anthropic" | "gemini";
  readonly label: string;
  readonly convert: (registry: ToolRegistry) => unknown[];
}

export const CONVERSION_FORMATS: readonly ConversionFormat[] = [
  { key: "openai-strict", label: "OpenAI tools (strict)", convert: (registry) => toOpenAITools(registry) },
  {
    key: "openai-responses",
    label: "OpenAI Responses tools (non-strict)",
    convert: (registry) => toOpenAITools(registry, { api: "responses", strict: false }),
  },
  { key: "anthropic", label: "Anthropic tools", convert: (registry) => toAnthropicTools(registry) },
  {
    key: "gemini",
    label: "Gemini function declarations",
    convert: (registry) => toGeminiFunctionDeclarations(registry),
  },
];
