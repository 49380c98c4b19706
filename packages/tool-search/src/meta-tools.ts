import type { ModelToolCallContext } from "@mcp-tool-adapter/model-tools";
import type { ToolCallResult, ToolDefinition } from "@mcp-tool-adapter/registry";

/** The meta-tools' local names; the model sees them as `<namespace>__search` etc. (default `tools__search`). */
export const META_TOOL_NAMES = { search: "search", load: "load", call: "call" } as const;

/**
 * What the meta-tools do, given to them by the tool search that owns them. `context` is the call's
 * context as the registry hands it on: through a model tool set it holds the set's `modelNames`.
 */
export interface MetaToolActions {
  search(query: string, limit: number | undefined, context: ModelToolCallContext): Promise<ToolCallResult>;
  load(names: readonly string[], context: ModelToolCallContext): ToolCallResult;
  call(name: string, args: Record<string, unknown>, context: ModelToolCallContext): Promise<ToolCallResult>;
}

const READS = { readOnly: true, writes: false, idempotent: true } as const;

/**
 * The meta-tools as registry definitions, so every runtime converts them like any other tool.
 * `call` reaches any tool of the set: it is declared writing and destructive, so every approval
 * policy but "never" asks before it runs (a function policy sees `{ name, arguments }`).
 */
export function metaToolDefinitions(actions: MetaToolActions, options: { directCall: boolean }): ToolDefinition[] {
  const definitions: ToolDefinition[] = [
    {
      name: META_TOOL_NAMES.search,
      description:
        "Search the available tools by what you want to do. Returns tool names, one-line descriptions and the words that matched. Load the ones you need with the load tool before calling them.",
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "What you want to do, in a few words (e.g. 'create a GitHub issue')." },
          limit: { type: "integer", minimum: 1, maximum: 50, description: "How many tools to return (default 8)." },
        },
        required: ["query"],
        additionalProperties: false,
      },
      capabilities: READS,
      source: "tool-search",
      sourceMetadata: { metaTool: "search" },
      checkpointable: true,
      handler: (args, context) => actions.search(args.query as string, args.limit as number | undefined, context),
    },
    {
      name: META_TOOL_NAMES.load,
      description:
        "Make tools found by the search tool available from your next step on. Pass their names exactly as the search returned them.",
      inputSchema: {
        type: "object",
        properties: {
          names: {
            type: "array",
            items: { type: "string" },
            minItems: 1,
            description: "Tool names from a search result.",
          },
        },
        required: ["names"],
        additionalProperties: false,
      },
      capabilities: READS,
      source: "tool-search",
      sourceMetadata: { metaTool: "load" },
      checkpointable: true,
      handler: (args, context) => actions.load(args.names as string[], context),
    },
  ];
  if (options.directCall) {
    definitions.push({
      name: META_TOOL_NAMES.call,
      description:
        "Call one tool found by the search tool right away, without loading it first. Pass its name as the search returned it and its arguments as an object.",
      inputSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "A tool name from a search result." },
          arguments: { type: "object", description: "The tool's arguments." },
        },
        required: ["name", "arguments"],
        additionalProperties: false,
      },
      capabilities: { readOnly: false, writes: true, destructive: true },
      source: "tool-search",
      sourceMetadata: { metaTool: "call" },
      checkpointable: false,
      handler: (args, context) => actions.call(args.name as string, args.arguments as Record<string, unknown>, context),
    });
  }
  return definitions;
}
