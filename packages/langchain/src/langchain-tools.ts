import { ToolMessage } from "@langchain/core/messages";
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { StructuredTool, ToolInputParsingException } from "@langchain/core/tools";
import {
  createModelToolSet,
  type ModelResultOptions,
  type ModelTool,
  type ModelToolSetOptions,
  type SchemaDialect,
} from "@mcp-tool-adapter/model-tools";
import type { ToolCallResult } from "@mcp-tool-adapter/registry";
import { LangChainToolCallError } from "./errors.js";
import { toLangChainContent, type LangChainToolContent } from "./tool-message-content.js";
import type { ToolSourceInput } from "@mcp-tool-adapter/model-tools";

/** What a failed call becomes: a ToolMessage with `status: "error"` the model reads (default), or a thrown LangChainToolCallError. */
export type LangChainErrorHandling = "message" | "throw";

export interface LangChainToolsOptions extends ModelToolSetOptions {
  /** Default "message": the run goes on and the model reads what went wrong and what to do next. */
  errors?: LangChainErrorHandling;
  /** Convert the input schemas for one provider first. Default: the tools' own schemas (the chat model converts them). */
  dialect?: SchemaDialect;
  /** Size budget of the text the model reads from one result (truncated with a visible marker). */
  result?: ModelResultOptions;
}

type JsonObjectSchema = Record<string, unknown>;
type ToolArgs = Record<string, unknown>;

/**
 * One registry tool as a LangChain `StructuredTool` (JSON schema, `content_and_artifact`): the
 * ToolMessage's content is what the model reads, its `artifact` the registry's full
 * `ToolCallResult` (MCP content blocks, structuredContent) for your code.
 */
export class MCPStructuredTool extends StructuredTool<
  JsonObjectSchema,
  ToolArgs,
  ToolArgs,
  [LangChainToolContent, ToolCallResult]
> {
  readonly name: string;
  readonly description: string;
  readonly schema: JsonObjectSchema;
  override responseFormat = "content_and_artifact" as const;
  /** The model-tools entry behind this tool: registry name, capabilities, real schema. */
  readonly modelTool: ModelTool;
  readonly #options: LangChainToolsOptions;

  constructor(modelTool: ModelTool, options: LangChainToolsOptions = {}) {
    // MCP Apps: `metadata.ui` (`{ resourceUri, visibility }`) names the tool's app for a host rendering it;
    // LangChain hands tool metadata to callbacks and tracers with every run of the tool.
    const ui = modelTool.ui?.resourceUri === undefined ? {} : { ui: modelTool.ui };
    super({ metadata: { registryName: modelTool.registryName, capabilities: modelTool.capabilities, ...ui } });
    this.modelTool = modelTool;
    this.name = modelTool.modelName;
    this.description = modelTool.description;
    // A copy of its own: LangChain's JSON Schema validator writes into the schema it is given,
    // and the registry's schemas are frozen.
    this.schema = structuredClone(
      options.dialect === undefined ? modelTool.inputSchema : modelTool.schemaFor(options.dialect).schema,
    );
    this.#options = options;
  }

  // The framework's own pre-validation gives the model only "did not match expected schema";
  // ours names every problem, so a model's bad arguments get our message back instead.
  // (The base signature is generic in the input; `never` keeps this override assignable to it.)
  override async invoke(input: unknown, config?: ToolRunnableConfig): Promise<never> {
    try {
      const output = await super.invoke(input as ToolArgs, config);
      return this.#markFailure(output) as never;
    } catch (error) {
      if (!(error instanceof ToolInputParsingException)) throw error;
      const call = toolCallOf(input, config);
      const result = await this.modelTool.execute(call.args, this.#executeOptions(config));
      const { content } = this.#contentOf(result);
      if (call.id === undefined) return content as never;
      return new ToolMessage({
        content,
        artifact: result,
        tool_call_id: call.id,
        name: this.name,
        status: result.success ? "success" : "error",
      }) as never;
    }
  }

  protected async _call(
    args: ToolArgs,
    _runManager?: unknown,
    config?: ToolRunnableConfig,
  ): Promise<[LangChainToolContent, ToolCallResult]> {
    const result = await this.modelTool.execute(args, this.#executeOptions(config));
    return [this.#contentOf(result).content, result];
  }

  #contentOf(result: ToolCallResult): { content: LangChainToolContent } {
    const { content, isError } = toLangChainContent(result, this.#options.result);
    if (isError && this.#options.errors === "throw") {
      throw new LangChainToolCallError(
        this.modelTool.registryName,
        typeof content === "string" ? content : JSON.stringify(content),
        result,
      );
    }
    return { content };
  }

  #markFailure(output: unknown): unknown {
    if (output instanceof ToolMessage && (output.artifact as ToolCallResult | undefined)?.success === false)
      output.status = "error";
    return output;
  }

  #executeOptions(config: ToolRunnableConfig | undefined): { signal?: AbortSignal; dialect?: SchemaDialect } {
    return {
      ...(config?.signal === undefined ? {} : { signal: config.signal }),
      ...(this.#options.dialect === undefined ? {} : { dialect: this.#options.dialect }),
    };
  }
}

function toolCallOf(input: unknown, config: ToolRunnableConfig | undefined): { args: ToolArgs; id?: string } {
  const isToolCall =
    typeof input === "object" &&
    input !== null &&
    (input as { type?: unknown }).type === "tool_call" &&
    "args" in input;
  const args = isToolCall ? (input as { args: ToolArgs }).args : (input as ToolArgs);
  const id = isToolCall ? (input as { id?: string }).id : config?.toolCall?.id;
  return id === undefined ? { args } : { args, id };
}

/**
 * The tools of a registry, server set or discovered MCPToolAdapter as LangChain StructuredTools, for `createAgent`, a
 * LangGraph `ToolNode` or `model.bindTools`. Names are model-safe (`memory__read_graph`); a
 * failed call is a ToolMessage with `status: "error"` unless `errors: "throw"`. The list is a
 * snapshot: convert again (or build the agent again) when the source changes.
 */
export function createLangChainTools(
  source: ToolSourceInput,
  options: LangChainToolsOptions = {},
): MCPStructuredTool[] {
  const { tools } = createModelToolSet(source, options);
  return tools.map((modelTool) => new MCPStructuredTool(modelTool, options));
}
