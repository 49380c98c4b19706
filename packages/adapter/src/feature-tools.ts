import type { ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { ToolCallResult, ToolDefinition } from "@mcp-tool-adapter/registry";
import { describeCause } from "./errors.js";
import type { MCPRequestOptions, MCPRequestResult } from "./protocol-types.js";

/** The names the opt-in resource and prompt tools take in a registry namespace. */
export const READ_RESOURCE_TOOL = "read_resource";
export const GET_PROMPT_TOOL = "get_prompt";

/** What the feature tools call; the adapter itself has all of it. */
export interface FeatureToolsContext {
  readonly serverName: string;
  readonly serverCapabilities: ServerCapabilities | undefined;
  readResource(uri: string, options: MCPRequestOptions): Promise<MCPRequestResult<unknown>>;
  getPrompt(name: string, args: Record<string, string>, options: MCPRequestOptions): Promise<MCPRequestResult<unknown>>;
}

const READ_ONLY = Object.freeze({
  readOnly: true,
  writes: false,
  destructive: false,
  idempotent: true,
  openWorld: false,
});

/**
 * `read_resource` and `get_prompt` as read-only registry tools (for `registerTools` with
 * `resourceAndPromptTools: true`), each only when the server declares resources / prompts.
 */
export function buildFeatureTools(context: FeatureToolsContext): ToolDefinition[] {
  const capabilities = context.serverCapabilities;
  const tools: ToolDefinition[] = [];
  const { serverName } = context;
  if (capabilities?.resources !== undefined) {
    tools.push({
      name: READ_RESOURCE_TOOL,
      description: `Read a resource of MCP server "${serverName}" by its URI (a listed resource, or a resource template with its variables filled in).`,
      inputSchema: {
        type: "object",
        properties: { uri: { type: "string", minLength: 1, description: "The resource's URI" } },
        required: ["uri"],
        additionalProperties: false,
      },
      capabilities: { ...READ_ONLY },
      source: "mcp",
      sourceMetadata: { server: serverName, feature: "resources" },
      checkpointable: false,
      handler: (args, call) =>
        settle(() => context.readResource(String(args.uri), call.signal === undefined ? {} : { signal: call.signal })),
    });
  }
  if (capabilities?.prompts !== undefined) {
    tools.push({
      name: GET_PROMPT_TOOL,
      description: `Get a prompt of MCP server "${serverName}" by name, with its arguments (strings).`,
      inputSchema: {
        type: "object",
        properties: {
          name: { type: "string", minLength: 1, description: "The prompt's name" },
          arguments: {
            type: "object",
            additionalProperties: { type: "string" },
            description: "The prompt's arguments",
          },
        },
        required: ["name"],
        additionalProperties: false,
      },
      capabilities: { ...READ_ONLY },
      source: "mcp",
      sourceMetadata: { server: serverName, feature: "prompts" },
      checkpointable: false,
      handler: (args, call) =>
        settle(() =>
          context.getPrompt(
            String(args.name),
            (args.arguments ?? {}) as Record<string, string>,
            call.signal === undefined ? {} : { signal: call.signal },
          ),
        ),
    });
  }
  return tools;
}

/** A registry handler never throws: not connected is an error result like any other failure. */
async function settle(run: () => Promise<MCPRequestResult<unknown>>): Promise<ToolCallResult> {
  try {
    const result = await run();
    if (result.success) return { success: true, data: result.data, durationMs: result.durationMs };
    return { success: false, error: result.error, errorKind: result.errorKind, durationMs: result.durationMs };
  } catch (error) {
    return { success: false, error: describeCause(error), errorKind: "connection_lost", durationMs: 0 };
  }
}
