import { describeCause, type Logger } from "@mcp-tool-adapter/core";
import { resolveToolSource, type ToolSource, type ToolSourceInput } from "@mcp-tool-adapter/model-tools";
import { ToolRegistry, type RegisteredTool, type ToolDefinition } from "@mcp-tool-adapter/registry";
import { bindApi, type ApiBinding } from "./api/api-binding.js";
import { generateDeclarations, type ApiDeclarations, type DeclarationOptions } from "./api/declarations.js";
import { CodeModeError } from "./errors.js";
import { runDescription } from "./run-description.js";
import { toRunToolResult } from "./run-report.js";
import { resolveSandboxLimits, type ResolvedSandboxLimits, type SandboxLimits } from "./sandbox/limits.js";
import { runInWorker } from "./sandbox/run-in-worker.js";
import { createSandboxWorkers, type SandboxWorkers } from "./sandbox/sandbox-workers.js";
import type { CodeRunResult } from "./sandbox/run-types.js";
import { toToolCallOutcome } from "./tool-outcome.js";

export interface CodeModeOptions {
  /** What one program may use; see {@link SandboxLimits}. */
  limits?: SandboxLimits;
  /** Keep only the tools this returns true for (default: every tool of the source). */
  filter?: (tool: RegisteredTool) => boolean;
  declarations?: DeclarationOptions;
  /** The registry namespace and name of the "run code" tool; default "code" and "run" (model name `code__run`). */
  toolNamespace?: string;
  toolName?: string;
  /**
   * The quickjs-emscripten sync variant package each run's worker imports (a fresh module per run,
   * so no run can affect the next); default `@jitl/quickjs-wasmfile-release-sync`. Give another
   * variant (`@jitl/quickjs-singlefile-mjs-release-sync` where a bundler cannot ship a .wasm file,
   * a debug build) installed where this package can import it, or a file URL.
   */
  quickjsVariant?: string;
  /**
   * How long the sandbox's worker thread is kept after a run for the next one, ms; default 30000.
   * A warm run skips starting a thread and loading QuickJS (each run still gets a fresh QuickJS
   * module and memory, so no run sees another's globals). The kept worker never holds the process
   * open and ends at `close()`; 0 starts a worker per run.
   */
  keepWarmMs?: number;
  logger?: Logger;
  /** Monotonic clock, ms; default `performance.now`. */
  now?: () => number;
}

export interface CodeRunOptions {
  /** Stops the program and aborts its tool calls in flight. */
  signal?: AbortSignal;
}

/** The tools of a source as a typed API, and one "run code" tool over it. */
export interface CodeMode {
  /** The API's declarations as the model sees them (regenerated when the source's tools change). */
  declarations(): Promise<ApiDeclarations>;
  /** Runs a program (JavaScript or TypeScript) against the API; never throws. */
  run(source: string, options?: CodeRunOptions): Promise<CodeRunResult>;
  /**
   * A registry holding the one "run code" tool, its description carrying the declarations: hand
   * it to any bridge (`createAISDKTools`, `createLangChainTools`, `createOpenAIAgentsTools`) or to
   * model-tools (`toOpenAITools`, `handleToolCall`). Kept current while the source changes.
   */
  readonly registry: ToolRegistry;
  /** Stops following the source and ends the kept worker; runs in flight finish. */
  close(): void;
}

/**
 * Code mode over a source of tools (an MCPServerSet, an adapter, a ToolRegistry). Every call a
 * program makes goes through `source.call`, which for MCP tools is the adapter's `invoke`:
 * validation, interceptors and approval, pinning, recovery and telemetry apply to each one.
 */
export async function createCodeMode(source: ToolSourceInput, options: CodeModeOptions = {}): Promise<CodeMode> {
  const namespace = options.toolNamespace ?? "code";
  const toolName = options.toolName ?? "run";
  const codeMode = new CodeModeRuntime({
    source: resolveToolSource(source),
    limits: resolveSandboxLimits(options.limits),
    options,
    names: { namespace, toolName },
  });
  await codeMode.refresh();
  return codeMode;
}

interface RuntimeInit {
  readonly source: ToolSource;
  readonly limits: ResolvedSandboxLimits;
  readonly options: CodeModeOptions;
  readonly names: { readonly namespace: string; readonly toolName: string };
}

class CodeModeRuntime implements CodeMode {
  readonly registry = new ToolRegistry();
  readonly #init: RuntimeInit;
  readonly #now: () => number;
  readonly #unsubscribe: () => void;
  readonly #workers: SandboxWorkers;
  #current: { binding: ApiBinding; declarations: ApiDeclarations } | undefined;
  #refreshing: Promise<void> | undefined;
  #stale = false;

  constructor(init: RuntimeInit) {
    this.#init = init;
    this.#now = init.options.now ?? (() => performance.now());
    this.#workers = createSandboxWorkers({
      keepWarmMs: init.options.keepWarmMs ?? DEFAULT_KEEP_WARM_MS,
      memoryBytes: init.limits.memoryBytes,
      logger: init.options.logger,
    });
    if (typeof init.options.toolNamespace === "string" && init.options.toolNamespace.length === 0) {
      throw new CodeModeError(
        "INVALID_OPTIONS",
        'createCodeMode: toolNamespace is empty; give a registry namespace such as "code"',
      );
    }
    this.#unsubscribe = init.source.subscribe((change) => {
      if (change.namespace === init.names.namespace && init.source === (this.registry as ToolSource)) return;
      void this.refresh().catch((error: unknown) => {
        init.options.logger?.warn?.("code-mode: regenerating the API failed", { error: describeCause(error) });
      });
    });
  }

  async declarations(): Promise<ApiDeclarations> {
    if (this.#refreshing !== undefined) await this.#refreshing;
    return (this.#current as { declarations: ApiDeclarations }).declarations;
  }

  /** Rebuilds the API and the tool; calls that meet one in progress run it once more after it. */
  refresh(): Promise<void> {
    if (this.#refreshing !== undefined) {
      this.#stale = true;
      return this.#refreshing;
    }
    this.#refreshing = (async () => {
      let again = true;
      while (again) {
        this.#stale = false;
        await this.#rebuild();
        again = this.#changedMeanwhile();
      }
    })().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /** Read through a method: a change may arrive while a rebuild awaits. */
  #changedMeanwhile(): boolean {
    return this.#stale;
  }

  async run(source: string, options: CodeRunOptions = {}): Promise<CodeRunResult> {
    if (this.#refreshing !== undefined) await this.#refreshing;
    const binding = (this.#current as { binding: ApiBinding }).binding;
    return runInWorker({
      source: typeof source === "string" ? source : String(source),
      api: binding.table,
      callTool: async (id, args, signal) =>
        toToolCallOutcome(await this.#init.source.call(id, args as Record<string, unknown>, { signal })),
      limits: this.#init.limits,
      quickjsVariant: this.#init.options.quickjsVariant,
      workers: this.#workers,
      now: this.#now,
      signal: options.signal,
      logger: this.#init.options.logger,
    });
  }

  close(): void {
    this.#unsubscribe();
    this.#workers.close();
  }

  async #rebuild(): Promise<void> {
    const { namespace } = this.#init.names;
    const filter = this.#init.options.filter;
    const tools = this.#init.source
      .list()
      .filter((tool) => tool.namespace !== namespace && (filter === undefined || filter(tool)));
    const binding = bindApi(tools);
    const declarations = await generateDeclarations(binding, this.#init.options.declarations);
    for (const { tool, reason } of declarations.degraded) {
      this.#init.options.logger?.warn?.("code-mode: a schema is typed unknown", { tool, reason });
    }
    this.#current = { binding, declarations };
    this.registry.replaceNamespace(namespace, [this.#definition(declarations, binding)]);
  }

  #definition(declarations: ApiDeclarations, binding: ApiBinding): ToolDefinition {
    return {
      name: this.#init.names.toolName,
      description: runDescription(declarations.text, this.#init.limits),
      inputSchema: RUN_INPUT_SCHEMA,
      // What the program can reach: read-only when every tool is, writing when any may write. A
      // bridge's approval policy then asks for a program as it would for its riskiest tool; the
      // adapter's approval interceptor asks per call inside the program (see docs/agent-runtimes.md).
      capabilities: {
        readOnly: binding.methods.every(({ tool }) => tool.capabilities.readOnly),
        writes: binding.methods.some(({ tool }) => tool.capabilities.writes),
      },
      source: "code-mode",
      sourceMetadata: { declarations: declarations.text },
      checkpointable: false,
      handler: async (args, context) => {
        const code = args["code"];
        if (typeof code !== "string" || code.trim().length === 0) {
          return {
            success: false,
            error: 'the argument "code" must be a non-empty string holding the program',
            errorKind: "validation",
          };
        }
        return toRunToolResult(await this.run(code, context.signal === undefined ? {} : { signal: context.signal }));
      },
    };
  }
}

const DEFAULT_KEEP_WARM_MS = 30_000;

const RUN_INPUT_SCHEMA: Record<string, unknown> = Object.freeze({
  type: "object",
  properties: Object.freeze({
    code: Object.freeze({
      type: "string",
      description:
        "The program: JavaScript or TypeScript, run as the body of an async function (use await and return).",
    }),
  }),
  required: Object.freeze(["code"]),
  additionalProperties: false,
});
