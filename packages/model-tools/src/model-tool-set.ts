import {
  isVisibleToModel,
  toolUiOf,
  type RegisteredTool,
  type ToolCallResult,
  type ToolCapabilities,
  type ToolUi,
} from "@mcp-tool-adapter/registry";
import {
  createSchemaValidator,
  formatValidationErrors,
  type CompiledSchema,
  type SchemaValidator,
} from "@mcp-tool-adapter/schema-validation";
import { mapModelToolNames, type ModelToolNameOptions, type ModelToolNames } from "./model-tool-names.js";
import {
  convertedFor,
  prepareSchema,
  type ConvertedSchema,
  type PreparedSchema,
  type SchemaDialect,
} from "./schema/convert-input-schema.js";
import { resolveToolSource, type ToolSource, type ToolSourceInput } from "./tool-source.js";
import { toolsetMatcher, type ToolsetOption } from "./toolset-option.js";

export interface ModelToolExecuteOptions {
  signal?: AbortSignal;
  /** The dialect the model saw: its property keys (renamed for Anthropic and Gemini where refused) are mapped back. */
  dialect?: SchemaDialect;
}

/** One registry tool as a model sees it, ready for any provider or framework. */
export interface ModelTool {
  /** Model-safe name (`^[a-zA-Z0-9_-]{1,64}$`). */
  readonly modelName: string;
  /** The registry's name, `"namespace/tool"`. */
  readonly registryName: string;
  readonly description: string;
  /** The tool's real input schema, as registered. */
  readonly inputSchema: Record<string, unknown>;
  readonly capabilities: ToolCapabilities;
  /** The registry entry behind it (source metadata, title, annotations). */
  readonly registered: RegisteredTool;
  /** MCP Apps: the tool's UI reference (its `ui://` resource, who may see it), if it has one. */
  readonly ui: ToolUi | undefined;
  /**
   * Restores the model's arguments, validates them against the real schema and calls the tool
   * through the source. Never throws: invalid arguments are a result with errorKind "validation"
   * listing every problem; a source that throws is a result with errorKind "handler_error".
   */
  execute(args: unknown, options?: ModelToolExecuteOptions): Promise<ToolCallResult>;
  /**
   * The input schema converted for one provider; computed once per dialect (and shared by the
   * tool sets of one registry while the tool is unchanged): treat it as read-only.
   */
  schemaFor(dialect: SchemaDialect): ConvertedSchema;
}

export interface ModelToolSetOptions {
  names?: ModelToolNameOptions;
  /** Keep only the tools this returns true for. */
  filter?: (tool: RegisteredTool) => boolean;
  /**
   * Keep only a toolset's tools (with `filter`, a tool must pass both): its patterns, or one of a
   * config's `toolsets` by name. An unknown name throws RegistryError `UNKNOWN_TOOLSET` naming the known ones.
   */
  toolset?: ToolsetOption;
  /** Validates arguments before a call; default: a fresh `createSchemaValidator()` per tool set. */
  validator?: SchemaValidator;
  /**
   * Which tools `execute` validates itself. Default: every tool except those with `source: "mcp"`,
   * whose calls the adapter validates against the same schema before sending (with the same
   * errorKind "validation" listing every problem), so the work is not done twice.
   */
  validateArguments?: (tool: RegisteredTool) => boolean;
}

/** The adapter registers MCP tools with this source and validates their arguments on every call. */
const SELF_VALIDATING_SOURCE = "mcp";
const defaultValidateArguments = (tool: RegisteredTool): boolean => tool.source !== SELF_VALIDATING_SOURCE;

export interface ModelToolSet {
  readonly tools: readonly ModelTool[];
  readonly names: ModelToolNames;
  get(modelName: string): ModelTool | undefined;
}

/**
 * A snapshot of the source's tools, named for models. Build a new one when the source changes
 * (`source.subscribe`): names and schemas are computed from the tools present at that moment.
 * Throws ModelToolsError for something that is not a tool source, or an adapter not yet discovered.
 */
export function createModelToolSet(input: ToolSourceInput, options: ModelToolSetOptions = {}): ModelToolSet {
  const source = resolveToolSource(input);
  const all = source.list();
  // MCP Apps: a tool its server meant for the app alone never reaches a model (nor any bridge).
  const listed = all.every(isVisibleToModel) ? all : all.filter(isVisibleToModel);
  // No copy of the whole list without a filter: thousands of tools are converted per agent step.
  const keep = keptTools(options);
  const registered = keep === undefined ? listed : listed.filter(keep);
  const scope = source.namingScope?.();
  const mapping = mapModelToolNames(
    scope === undefined ? registered.map((tool) => tool.name) : [...scope, ...registered.map((tool) => tool.name)],
    options.names,
  );
  // The lists are in the order given when every name came once (a registry's names are unique).
  const inOrder = scope === undefined && mapping.modelNames.length === registered.length;
  const origin: ToolSetOrigin = { source, names: mapping.names };
  let validator = options.validator;
  const sharedValidator = (): SchemaValidator => (validator ??= createSchemaValidator());
  const validateArguments = options.validateArguments ?? defaultValidateArguments;
  const tools = registered.map(
    (tool, index) =>
      new RegistryModelTool(
        origin,
        tool,
        inOrder ? (mapping.modelNames[index] as string) : mapping.names.toModelName(tool.name),
        validateArguments(tool) ? sharedValidator : undefined,
      ),
  );
  // Built on the first lookup: a set made only to list its tools for a model never needs it.
  let byModelName: Map<string, ModelTool> | undefined;
  return {
    tools,
    names: mapping.names,
    get: (modelName) => (byModelName ??= new Map(tools.map((tool) => [tool.modelName, tool]))).get(modelName),
  };
}

/** The one test of `filter` and `toolset` together; `undefined` when every tool is kept. */
function keptTools(options: ModelToolSetOptions): ((tool: RegisteredTool) => boolean) | undefined {
  const { filter } = options;
  const inToolset = toolsetMatcher(options.toolset);
  if (inToolset === undefined) return filter;
  if (filter === undefined) return (tool) => inToolset(tool.name);
  return (tool) => inToolset(tool.name) && filter(tool);
}

/**
 * Conversions of frozen schemas (the registry's snapshots are deep-frozen, and stay the same
 * objects while a tool is unchanged), shared by every tool set: converting the tools afresh for
 * each agent step then costs a lookup per tool. A changed schema is a new object. The results
 * are not frozen (freezing thousands of them cost more than converting them): read-only by contract.
 */
const frozenSchemaConversions = new WeakMap<object, PreparedSchema>();

function conversionsOf(schema: Record<string, unknown>): PreparedSchema {
  const cached = frozenSchemaConversions.get(schema);
  if (cached !== undefined) return cached;
  const conversions = prepareSchema(schema);
  if (Object.isFrozen(schema)) frozenSchemaConversions.set(schema, conversions);
  return conversions;
}

/** What every tool of one set shares: the source it calls and the set's names. */
interface ToolSetOrigin {
  readonly source: ToolSource;
  readonly names: ModelToolNames;
}

/** One tool; a class so that a set of thousands of tools shares its methods instead of closures per tool. */
class RegistryModelTool implements ModelTool {
  readonly registryName: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly capabilities: ToolCapabilities;
  readonly ui: ToolUi | undefined;
  #conversions: PreparedSchema | undefined;
  #compiled: CompiledSchema | null | undefined;

  constructor(
    private readonly origin: ToolSetOrigin,
    readonly registered: RegisteredTool,
    readonly modelName: string,
    private readonly validator: (() => SchemaValidator) | undefined,
  ) {
    this.registryName = registered.name;
    this.description = registered.description;
    this.inputSchema = registered.inputSchema;
    this.capabilities = registered.capabilities;
    this.ui = toolUiOf(registered);
  }

  schemaFor(dialect: SchemaDialect): ConvertedSchema {
    return convertedFor(this.#schemaConversions(), dialect);
  }

  async execute(args: unknown, options: ModelToolExecuteOptions = {}): Promise<ToolCallResult> {
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      return invalid(
        this.registryName,
        `the arguments must be a JSON object, got ${args === null ? "null" : Array.isArray(args) ? "an array" : typeof args}`,
      );
    }
    // The dialect's own restore: Anthropic and Gemini may have seen renamed property keys.
    const restored =
      options.dialect === undefined
        ? this.#schemaConversions().restoreArguments(args as Record<string, unknown>)
        : this.schemaFor(options.dialect).restoreArguments(args as Record<string, unknown>);
    const check = this.#compiledSchema()?.validate(restored);
    if (check !== undefined && !check.valid) return invalid(this.registryName, formatValidationErrors(check.errors));
    try {
      const { source, names } = this.origin;
      return await source.call(
        this.registryName,
        restored,
        options.signal === undefined ? { modelNames: names } : { signal: options.signal, modelNames: names },
      );
    } catch (error) {
      return {
        success: false,
        errorKind: "handler_error",
        error: `tool "${this.registryName}" failed: ${error instanceof Error ? error.message : typeof error === "string" ? error : "it threw a non-Error value"}`,
        durationMs: 0,
      };
    }
  }

  #schemaConversions(): PreparedSchema {
    return (this.#conversions ??= conversionsOf(this.inputSchema));
  }

  #compiledSchema(): CompiledSchema | null {
    if (this.validator === undefined) return null;
    if (this.#compiled === undefined) {
      try {
        this.#compiled = this.validator().compile(this.inputSchema);
      } catch {
        // A schema our validator cannot compile is left to the source, which checks it its own way.
        this.#compiled = null;
      }
    }
    return this.#compiled;
  }
}

function invalid(name: string, problems: string): ToolCallResult {
  return {
    success: false,
    errorKind: "validation",
    error: `invalid arguments for tool "${name}": ${problems}`,
    durationMs: 0,
  };
}
