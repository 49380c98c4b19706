import type { ToolCallResult } from "@mcp-tool-adapter/registry";
import type { ModelResultOptions } from "./model-content.js";
import { createModelToolSet, type ModelToolSet, type ModelToolSetOptions } from "./model-tool-set.js";
import {
  toAnthropicToolResult,
  toGeminiFunctionResponse,
  toOpenAIChatToolMessage,
  toOpenAIResponsesOutput,
  type AnthropicToolResultBlock,
  type GeminiFunctionResponsePart,
  type OpenAIChatToolMessage,
  type OpenAIResponsesFunctionCallOutput,
} from "./provider-results.js";
import { isModelToolSet, type ModelToolsInput } from "./provider-tools.js";
import type { SchemaDialect } from "./schema/convert-input-schema.js";
import { ModelToolsError } from "./model-tools-error.js";
import { resolveToolSource, type ToolSource } from "./tool-source.js";

/** A tool call as a provider sends it: its id, the model's tool name, and the arguments (JSON text or parsed). */
export interface ProviderToolCall {
  id: string;
  name: string;
  arguments: string | Record<string, unknown> | undefined;
}

/** What each provider wants back for a tool call. */
export interface ToolCallOutputs {
  "openai-chat": OpenAIChatToolMessage;
  "openai-responses": OpenAIResponsesFunctionCallOutput;
  anthropic: AnthropicToolResultBlock;
  gemini: GeminiFunctionResponsePart;
}

export type ToolCallFormat = keyof ToolCallOutputs;

export interface HandleToolCallOptions<F extends ToolCallFormat = ToolCallFormat>
  extends ModelResultOptions, ModelToolSetOptions {
  format: F;
  signal?: AbortSignal;
}

const DIALECT_OF: Readonly<Record<ToolCallFormat, SchemaDialect>> = {
  "openai-chat": "openai-strict",
  "openai-responses": "openai-strict",
  anthropic: "anthropic",
  gemini: "gemini",
};
const LISTED_TOOLS = 20;
const FORMATS = Object.keys(DIALECT_OF) as ToolCallFormat[];

/**
 * One provider tool call, start to end: the model's name mapped back to the registry tool, the
 * arguments parsed, restored and validated, the tool invoked through the source, and the result
 * shaped for the provider. A model's mistake never throws: an unknown tool, bad JSON or a failed
 * call comes back as an error result the model can read. Pass a ModelToolSet (not a bare source) when you also sent
 * the tools from it, so both sides use the very same names.
 *
 * The caller's own mistakes reject with ModelToolsError before any tool runs: a `format` that is
 * not one of {@link ToolCallFormat} (`INVALID_OPTIONS`), or something that is not a tool source.
 */
export async function handleToolCall<F extends ToolCallFormat>(
  source: ModelToolsInput,
  call: ProviderToolCall,
  options: HandleToolCallOptions<F>,
): Promise<ToolCallOutputs[F]> {
  const format: unknown = (options as Partial<HandleToolCallOptions<F>> | undefined)?.format;
  if (!FORMATS.includes(format as ToolCallFormat)) {
    throw new ModelToolsError(
      "INVALID_OPTIONS",
      `handleToolCall needs options.format, one of ${FORMATS.map((name) => `"${name}"`).join(", ")} (the provider the result goes back to); got ${typeof format === "string" ? JSON.stringify(format) : format === undefined ? "none" : `a ${typeof format}`}. No tool was called.`,
    );
  }
  const result = await runToolCall(isModelToolSet(source) ? source : resolveToolSource(source), call, options);
  return shape(options.format, call, result, options) as ToolCallOutputs[F];
}

async function runToolCall(
  source: ToolSource | ModelToolSet,
  call: ProviderToolCall,
  options: HandleToolCallOptions,
): Promise<ToolCallResult> {
  try {
    const set = isModelToolSet(source) ? source : toolSetFor(source, options);
    const tool = set.get(call.name);
    if (tool === undefined) {
      const names = set.tools.slice(0, LISTED_TOOLS).map((candidate) => candidate.modelName);
      const more = set.tools.length > LISTED_TOOLS ? `, and ${set.tools.length - LISTED_TOOLS} more` : "";
      return {
        success: false,
        errorKind: "not_found",
        error: `there is no tool named "${call.name}". Available tools: ${names.join(", ") || "none"}${more}`,
        durationMs: 0,
      };
    }
    const args = parseArguments(call.arguments);
    if (typeof args === "string")
      return {
        success: false,
        errorKind: "validation",
        error: `invalid arguments for tool "${call.name}": ${args}`,
        durationMs: 0,
      };
    return await tool.execute(args, {
      dialect: DIALECT_OF[options.format],
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    return {
      success: false,
      errorKind: "handler_error",
      error: `the tool call "${call.name}" could not be run: ${error instanceof Error ? error.message : "a non-Error value was thrown"}`,
      durationMs: 0,
    };
  }
}

/** The arguments as an object, or the reason they are not one. */
function parseArguments(raw: ProviderToolCall["arguments"]): Record<string, unknown> | string {
  if (raw === undefined || (typeof raw === "string" && raw.trim() === "")) return {};
  if (typeof raw !== "string") return raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
    return `the arguments must be a JSON object, got ${Array.isArray(parsed) ? "an array" : parsed === null ? "null" : typeof parsed}`;
  } catch (error) {
    return `the arguments are not valid JSON (${error instanceof Error ? error.message : "parse error"}); send one JSON object`;
  }
}

function shape(
  format: ToolCallFormat,
  call: ProviderToolCall,
  result: ToolCallResult,
  options: ModelResultOptions,
): ToolCallOutputs[ToolCallFormat] {
  switch (format) {
    case "openai-chat":
      return toOpenAIChatToolMessage(call.id, result, options);
    case "openai-responses":
      return toOpenAIResponsesOutput(call.id, result, options);
    case "anthropic":
      return toAnthropicToolResult(call.id, result, options);
    case "gemini":
      return toGeminiFunctionResponse(call.id, call.name, result, options);
  }
}

/**
 * The default tool set of a bare source, kept until the source reports a change: building one
 * maps every name, so doing it per call would make a call cost grow with the registry.
 * Custom options (names, filter, validator) build a fresh set each time.
 */
const defaultSets = new WeakMap<ToolSource, ModelToolSet>();

function toolSetFor(source: ToolSource, options: ModelToolSetOptions): ModelToolSet {
  if (
    options.names !== undefined ||
    options.filter !== undefined ||
    options.validator !== undefined ||
    options.validateArguments !== undefined
  )
    return createModelToolSet(source, options);
  let set = defaultSets.get(source);
  if (set === undefined) {
    set = createModelToolSet(source);
    defaultSets.set(source, set);
    const unsubscribe = source.subscribe(() => {
      defaultSets.delete(source);
      unsubscribe();
    });
  }
  return set;
}
