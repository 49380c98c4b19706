import { createModelToolSet, type ModelTool, type ModelToolSet, type ModelToolSetOptions } from "./model-tool-set.js";
import type { ToolSourceInput } from "./tool-source.js";

export interface OpenAIChatFunctionTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown>; strict: boolean };
}

export interface OpenAIResponsesFunctionTool {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

export type OpenAIFunctionTool = OpenAIChatFunctionTool | OpenAIResponsesFunctionTool;

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  /** Left out for a tool without arguments (Gemini refuses an OBJECT without properties). */
  parameters?: Record<string, unknown>;
}

export interface OpenAIToolsOptions extends ModelToolSetOptions {
  /** Strict function calling where a schema converts without changing meaning; default true. */
  strict?: boolean;
  /** The shape of the API the tools go to; default "chat" (Chat Completions). */
  api?: "chat" | "responses";
}

/** A tool source, or a tool set already built from one (reuse it: names stay the same, schemas are converted once). */
export type ModelToolsInput = ToolSourceInput | ModelToolSet;

export function isModelToolSet(input: ModelToolsInput): input is ModelToolSet {
  const given: unknown = input; // JavaScript callers may pass anything
  return (
    typeof given === "object" &&
    given !== null &&
    Array.isArray((given as Partial<ModelToolSet>).tools) &&
    typeof (given as Partial<ModelToolSet>).get === "function"
  );
}

export function toolsOf(input: ModelToolsInput, options: ModelToolSetOptions): readonly ModelTool[] {
  return isModelToolSet(input) ? input.tools : createModelToolSet(input, options).tools;
}

/** OpenAI function tools (Chat Completions or Responses shape), strict where the schema allows it. */
export function toOpenAITools(
  source: ModelToolsInput,
  options: OpenAIToolsOptions & { api: "responses" },
): OpenAIResponsesFunctionTool[];
export function toOpenAITools(
  source: ModelToolsInput,
  options?: OpenAIToolsOptions & { api?: "chat" },
): OpenAIChatFunctionTool[];
export function toOpenAITools(source: ModelToolsInput, options?: OpenAIToolsOptions): OpenAIFunctionTool[];
export function toOpenAITools(source: ModelToolsInput, options: OpenAIToolsOptions = {}): OpenAIFunctionTool[] {
  const dialect = options.strict === false ? "openai" : "openai-strict";
  return toolsOf(source, options).map((tool) => {
    const { schema, strict } = tool.schemaFor(dialect);
    const definition = { name: tool.modelName, description: tool.description, parameters: schema, strict };
    return options.api === "responses"
      ? { type: "function", ...definition }
      : { type: "function", function: definition };
  });
}

/** Anthropic Messages API tools (`name`, `description`, `input_schema`). */
export function toAnthropicTools(source: ModelToolsInput, options: ModelToolSetOptions = {}): AnthropicTool[] {
  return toolsOf(source, options).map((tool) => ({
    name: tool.modelName,
    description: tool.description,
    input_schema: tool.schemaFor("anthropic").schema,
  }));
}

/** Gemini function declarations (`tools: [{ functionDeclarations }]`), parameters in Gemini's OpenAPI subset. */
export function toGeminiFunctionDeclarations(
  source: ModelToolsInput,
  options: ModelToolSetOptions = {},
): GeminiFunctionDeclaration[] {
  return toolsOf(source, options).map((tool) => {
    const { schema } = tool.schemaFor("gemini");
    // No spread and no key list per tool: thousands are converted at once.
    return hasOwnKeys(schema.properties)
      ? { name: tool.modelName, description: tool.description, parameters: schema }
      : { name: tool.modelName, description: tool.description };
  });
}

function hasOwnKeys(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}
