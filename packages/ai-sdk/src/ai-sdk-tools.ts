import {
  createModelToolSet,
  needsApproval,
  type ApprovalPolicy,
  type ModelResultOptions,
  type ModelTool,
  type ModelToolSetOptions,
  type SchemaDialect,
} from "@mcp-tool-adapter/model-tools";
import type { ToolCallResult } from "@mcp-tool-adapter/registry";
import { jsonSchema, tool, type JSONSchema7, type Tool, type ToolSet } from "ai";
import { toAISDKModelOutput } from "./model-output.js";
import type { ToolSourceInput } from "@mcp-tool-adapter/model-tools";

export interface AISDKToolsOptions extends ModelToolSetOptions {
  /**
   * Which calls wait for the user's approval (`needsApproval`): "writes" (default) for tools
   * whose capabilities say they write, "destructive", "never", or your own function.
   */
  approval?: ApprovalPolicy;
  /**
   * Convert the input schemas for one provider before the AI SDK sees them ("openai-strict"
   * also marks the tools that convert without a change of meaning as `strict`). Default: the
   * tools' own schemas, which the AI SDK's providers convert themselves.
   */
  dialect?: SchemaDialect;
  /** Size budget of the text the model reads from one result (truncated with a visible marker). */
  result?: ModelResultOptions;
}

/** One registry tool as an AI SDK tool: its output is the registry's `ToolCallResult`. */
export type AISDKTool = Tool<Record<string, unknown>, ToolCallResult>;

/**
 * The tools of a registry, server set or discovered MCPToolAdapter as an AI SDK `ToolSet` for `generateText` /
 * `streamText` / agents. Keys are model-safe names (`memory__create_entities`). Arguments are
 * validated against each tool's real schema before the call; a failure (bad arguments, timeout,
 * server error) is returned to the model as error text and the run goes on. The AI SDK's abort
 * signal cancels the MCP call. The set is a snapshot: convert again when the source changes.
 */
export function createAISDKTools(source: ToolSourceInput, options: AISDKToolsOptions = {}): Record<string, AISDKTool> {
  const { tools } = createModelToolSet(source, options);
  const approval = options.approval ?? "writes";
  const entries = tools.map((modelTool) => [modelTool.modelName, toAISDKTool(modelTool, approval, options)] as const);
  return Object.fromEntries(entries) satisfies ToolSet;
}

function toAISDKTool(modelTool: ModelTool, approval: ApprovalPolicy, options: AISDKToolsOptions): AISDKTool {
  const dialect = options.dialect;
  const converted = dialect === undefined ? undefined : modelTool.schemaFor(dialect);
  const schema = (converted?.schema ?? modelTool.inputSchema) as JSONSchema7;
  return tool<Record<string, unknown>, ToolCallResult, Record<string, never>>({
    description: modelTool.description,
    // No `validate`: our own validation runs in execute against the real schema, so a model's
    // mistake comes back to it as a tool result instead of ending the step with an error.
    inputSchema: jsonSchema<Record<string, unknown>>(schema),
    ...(converted?.strict === true ? { strict: true } : {}),
    metadata: { registryName: modelTool.registryName, ...appMetadata(modelTool.ui) },
    // The tool's own needsApproval still decides in AI SDK 7 when generateText gets no
    // `toolApproval`; it keeps the policy with the tools, so a caller cannot forget it.
    ...(approval === "never"
      ? {}
      : {
          // eslint-disable-next-line @typescript-eslint/no-deprecated
          needsApproval: (input: Record<string, unknown>) => needsApproval(approval, modelTool, input),
        }),
    execute: (input, { abortSignal }) =>
      modelTool.execute(input, {
        ...(abortSignal === undefined ? {} : { signal: abortSignal }),
        ...(dialect === undefined ? {} : { dialect }),
      }),
    toModelOutput: ({ output }) => toAISDKModelOutput(output, options.result),
  });
}

/** The MIME type of an MCP App's HTML resource (the extension's `RESOURCE_MIME_TYPE`). */
const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

/**
 * MCP Apps: a tool's app where the AI SDK's own MCP client puts it, `metadata.app`
 * (`{ resourceUri, visibility, mimeType }`), which the AI SDK copies onto tool call, result and UI
 * message parts as `toolMetadata`: a host rendering with the AI SDK finds the app there.
 */
function appMetadata(ui: ModelTool["ui"]): { app?: { resourceUri: string; visibility: string[]; mimeType: string } } {
  if (ui?.resourceUri === undefined) return {};
  return { app: { resourceUri: ui.resourceUri, visibility: [...ui.visibility], mimeType: MCP_APP_MIME_TYPE } };
}

/**
 * The names of the tools a step should offer, for `prepareStep: () => ({ activeTools })`: those
 * whose registry tool `isActive` accepts (with tool search: `search.isActive`, the meta-tools,
 * pinned and loaded tools). Convert the search's `catalog` once and choose the active ones per
 * step; `createAISDKSearchTools` also follows tools that arrive mid-run.
 */
export function activeToolNames(
  tools: Readonly<Record<string, AISDKTool>>,
  isActive: (registryName: string) => boolean,
): string[] {
  return Object.entries(tools)
    .filter(([, candidate]) => {
      const registryName = (candidate.metadata as { registryName?: unknown } | undefined)?.registryName;
      return typeof registryName === "string" && isActive(registryName);
    })
    .map(([name]) => name);
}
