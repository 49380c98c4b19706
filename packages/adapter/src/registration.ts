import {
  TOOL_UI_METADATA_KEY,
  validateToolName,
  type ToolCallResult,
  type ToolDefinition,
  type ToolRegistry,
} from "@mcp-tool-adapter/registry";
import { describeCause } from "./errors.js";
import { toolCapability } from "./tool-capabilities.js";
import { compileToolFilter } from "./tool-filter.js";
import type { InvokeOptions, MCPToolDescriptor, MCPToolResult, RegisterToolsOptions } from "./types.js";

/** A registry namespace the adapter keeps filled with its tools. */
export interface Registration {
  readonly registry: ToolRegistry;
  readonly namespace: string;
  readonly options: RegisterToolsOptions;
}

interface RegistrationContext {
  serverName: string;
  invoke(name: string, args: Record<string, unknown>, options: InvokeOptions): Promise<MCPToolResult>;
}

/** Turns discovered tools into registry definitions; names the registry would reject are skipped. */
export function buildToolDefinitions(
  registration: Registration,
  tools: readonly MCPToolDescriptor[],
  context: RegistrationContext,
): { definitions: ToolDefinition[]; skipped: { name: string; reason: string }[]; registeredNames: string[] } {
  const filter = compileToolFilter(registration.options.filter);
  const definitions: ToolDefinition[] = [];
  const skipped: { name: string; reason: string }[] = [];
  const registeredNames: string[] = [];
  for (const tool of tools) {
    if (!filter.matches(tool.name)) continue;
    const reason = validateToolName("tool", tool.name);
    if (reason !== undefined) {
      skipped.push({ name: tool.name, reason });
      continue;
    }
    const { decidedBy, ...capabilities } = toolCapability(tool, registration.options.overrides);
    definitions.push({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      capabilities,
      source: "mcp",
      sourceMetadata: {
        server: context.serverName,
        originalName: tool.name,
        capabilitiesDecidedBy: decidedBy,
        ...(tool.title === undefined ? {} : { title: tool.title }),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
        ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
        ...(tool.ui === undefined ? {} : { [TOOL_UI_METADATA_KEY]: tool.ui }),
      },
      checkpointable: false,
      handler: createHandler(tool.name, context),
    });
    registeredNames.push(`${registration.namespace}/${tool.name}`);
  }
  return { definitions, skipped, registeredNames };
}

/** A registry handler never throws: not connected is an error result like any other failure. */
function createHandler(toolName: string, context: RegistrationContext): ToolDefinition["handler"] {
  return async (args, callContext) => {
    try {
      const options: InvokeOptions = callContext.signal === undefined ? {} : { signal: callContext.signal };
      return toCallResult(await context.invoke(toolName, args, options));
    } catch (error) {
      return { success: false, error: describeCause(error), errorKind: "connection_lost", durationMs: 0 };
    }
  };
}

function toCallResult(result: MCPToolResult): ToolCallResult {
  return {
    success: result.success,
    ...(result.data === null ? {} : { data: result.data }),
    ...(result.error === null ? {} : { error: result.error }),
    ...(result.errorKind === undefined ? {} : { errorKind: result.errorKind }),
    durationMs: result.durationMs,
  };
}
