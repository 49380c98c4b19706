import { tool, type FunctionTool } from "@openai/agents";
import {
  createModelToolSet,
  needsApproval,
  type ApprovalPolicy,
  type ModelResultOptions,
  type ModelTool,
  type ModelToolSetOptions,
  type SchemaDialect,
} from "@mcp-tool-adapter/model-tools";
import { OpenAIAgentsBridgeError } from "./errors.js";
import { toAgentsToolOutput, type AgentsToolOutput } from "./tool-output.js";
import type { ToolSourceInput } from "@mcp-tool-adapter/model-tools";

export interface OpenAIAgentsToolsOptions extends ModelToolSetOptions {
  /**
   * Which calls interrupt the run for approval (`needsApproval`): "writes" (default) for every
   * tool not known to be read-only, "destructive", "never", or your own function.
   */
  approval?: ApprovalPolicy;
  /** Default true: strict schemas for the tools whose schema converts without a change of meaning; the others stay non-strict. */
  strict?: boolean;
  /** Size budget of the text the model reads from one result (truncated with a visible marker). */
  result?: ModelResultOptions;
  /**
   * Which tools the model is offered on each turn (the SDK's `isEnabled`), by registry name. With
   * tool search: convert `search.catalog` once and pass `isEnabled: search.isActive`, so the
   * meta-tools, pinned and loaded tools are offered. Default: every tool.
   */
  isEnabled?: (registryName: string) => boolean;
}

/** JSON-schema parameter objects as the Agents SDK types them (the SDK does not export the names). */
interface StrictParameters {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: false;
}
type NonStrictParameters = Omit<StrictParameters, "additionalProperties"> & { additionalProperties: true };

/**
 * A function tool of the Agents SDK. MCP Apps: `ui` (`{ resourceUri, visibility }`) names the
 * tool's app for a host rendering it; the SDK has no metadata field of its own for function tools,
 * and sends the model only the fields it knows, so `ui` stays on the host's side.
 */
export type OpenAIAgentsTool = FunctionTool<unknown, StrictParameters | NonStrictParameters, AgentsToolOutput> & {
  readonly ui?: ModelTool["ui"];
};

/**
 * The tools of a registry, server set or discovered MCPToolAdapter as OpenAI Agents SDK function tools for `new Agent({ tools })`.
 * Arguments the model sends are mapped back (strict mode's nulls become absent), validated
 * against each tool's real schema and sent through the registry; a failure comes back to the
 * model as text naming its errorKind, and the run goes on. The list is a snapshot: convert again
 * when the source changes.
 */
export function createOpenAIAgentsTools(
  source: ToolSourceInput,
  options: OpenAIAgentsToolsOptions = {},
): OpenAIAgentsTool[] {
  // Charset "word" by default: the SDK rewrites "-" to "_", which could make two names one.
  const { tools } = createModelToolSet(source, {
    ...options,
    names: { charset: "word", ...options.names },
  });
  const agentsNames = agentsToolNames(tools);
  return tools.map((modelTool) => {
    const converted = toAgentsTool(modelTool, agentsNames.get(modelTool) ?? modelTool.modelName, options);
    return modelTool.ui?.resourceUri === undefined ? converted : Object.assign(converted, { ui: modelTool.ui });
  });
}

function toAgentsTool(modelTool: ModelTool, name: string, options: OpenAIAgentsToolsOptions): OpenAIAgentsTool {
  const strictSchema = options.strict === false ? undefined : modelTool.schemaFor("openai-strict");
  const dialect: SchemaDialect = strictSchema?.strict === true ? "openai-strict" : "openai";
  const approval = options.approval ?? "writes";
  const { isEnabled } = options;
  const common = {
    name,
    description: modelTool.description,
    ...(isEnabled === undefined ? {} : { isEnabled: () => isEnabled(modelTool.registryName) }),
    needsApproval:
      approval === "never"
        ? false
        : (_context: unknown, input: unknown) => needsApproval(approval, modelTool, input as Record<string, unknown>),
    execute: async (
      input: unknown,
      _context?: unknown,
      details?: { signal?: AbortSignal },
    ): Promise<AgentsToolOutput> => {
      const result = await modelTool.execute(input, {
        dialect,
        ...(details?.signal === undefined ? {} : { signal: details.signal }),
      });
      return toAgentsToolOutput(result, options.result);
    },
  };
  // Typed per branch: the SDK's types tie `strict` to the shape of `parameters`.
  if (strictSchema?.strict === true) {
    return tool<StrictParameters, unknown, AgentsToolOutput>({
      ...common,
      parameters: strictSchema.schema as unknown as StrictParameters,
      strict: true,
    });
  }
  return tool<NonStrictParameters, unknown, AgentsToolOutput>({
    ...common,
    parameters: modelTool.schemaFor("openai").schema as unknown as NonStrictParameters,
    strict: false,
  });
}

/**
 * The Agents SDK turns every character outside [a-zA-Z0-9_] into "_" (so "get-sum" is "get_sum").
 * With the default charset "word" no name has such a character; with `names.charset: "standard"`
 * two model names that differ only there would meet, which this refuses to hide.
 */
function agentsToolNames(tools: readonly ModelTool[]): Map<ModelTool, string> {
  const names = new Map<ModelTool, string>();
  const owners = new Map<string, ModelTool>();
  for (const modelTool of tools) {
    const name = modelTool.modelName.replace(/[^a-zA-Z0-9_]/g, "_");
    const owner = owners.get(name);
    if (owner !== undefined) {
      throw new OpenAIAgentsBridgeError(
        "NAME_COLLISION",
        `Tools "${owner.registryName}" and "${modelTool.registryName}" would both be "${name}" in the OpenAI Agents SDK (it replaces "-" with "_"). Leave out names.charset "standard" (the default "word" keeps them apart), or leave one tool out with the filter option.`,
      );
    }
    owners.set(name, modelTool);
    names.set(modelTool, name);
  }
  return names;
}
