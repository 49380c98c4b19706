import { describeCause, type Logger } from "@mcp-tool-adapter/core";
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSWASMModule } from "quickjs-emscripten-core";
import type { WasmHeap } from "./heap-cap.js";
import { cpuTimeLimitError, memoryLimitError, sandboxFailure, totalTimeLimitError } from "./limit-errors.js";
import type { ResolvedSandboxLimits } from "./limits.js";
import { preludeSource } from "./prelude.js";
import type { CodeRunError, CodeRunErrorCode, CodeRunResult, RunObserver, ToolCallOutcome } from "./run-types.js";
import { transpileProgram } from "./transpile.js";

export interface ProgramRequest {
  readonly source: string;
  /** The API: group -> method -> the id `callTool` receives. */
  readonly api: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The one bridge out of the sandbox. Should not throw; a throw is a failed call ("handler_error"). */
  readonly callTool: (id: string, args: unknown, signal: AbortSignal) => Promise<ToolCallOutcome>;
  readonly limits: ResolvedSandboxLimits;
  readonly quickjs: QuickJSWASMModule;
  /** The module's memory, capped to `limits.memoryBytes` for the program; without it only QuickJS's own (partial) limit holds. */
  readonly heap?: WasmHeap | undefined;
  /** Monotonic clock, ms, for the run's duration and total time. */
  readonly now: () => number;
  /** The CPU budget's clock, ms (see cpu-clock.ts); the observer's times are on it. Default `now`. */
  readonly cpuNow?: (() => number) | undefined;
  readonly observer?: RunObserver | undefined;
  readonly logger?: Logger | undefined;
}

/** Runs one program in a fresh QuickJS runtime and disposes it; never throws, never outlives its limits. */
export async function runProgram(request: ProgramRequest): Promise<CodeRunResult> {
  const run = new ProgramRun(request);
  try {
    return await run.execute();
  } catch (error) {
    if (error instanceof SandboxBroken) return run.brokenResult();
    throw error;
  } finally {
    run.dispose();
  }
}

/** Thrown through the run when the module failed: caught once, in runProgram. */
class SandboxBroken extends Error {}

const HOST_STACK = /call stack size exceeded/i;
const MEMORY_MESSAGE = /out of memory/i;
const STACK_MESSAGE = /stack overflow|call stack size exceeded/i;
const INTERRUPTED_MESSAGE = /interrupted/i;

class ProgramRun {
  readonly #request: ProgramRequest;
  readonly #limits: ResolvedSandboxLimits;
  readonly #started: number;
  readonly #cpuNow: () => number;
  readonly #calls = new AbortController();
  readonly #deferreds = new Set<QuickJSDeferredPromise>();
  readonly #logs: string[] = [];
  #logChars = 0;
  #droppedLogLines = 0;
  #toolCalls = 0;
  #cpuUsedMs = 0;
  #sliceStart: number | undefined;
  /** Set by the host when the program must stop: the interrupt handler then ends it. */
  #abort: CodeRunError | undefined;
  #disposed = false;
  #broken = false;
  #wake: (() => void) | undefined;
  readonly #runtime;
  readonly #context: QuickJSContext;
  /** The module's first free heap, held so the program's share is the memory limit (see heap-cap.ts). */
  readonly #ballast: QuickJSHandle | undefined;

  constructor(request: ProgramRequest) {
    this.#request = request;
    this.#limits = request.limits;
    this.#started = request.now();
    this.#cpuNow = request.cpuNow ?? request.now;
    this.#runtime = request.quickjs.newRuntime();
    this.#context = this.#runtime.newContext();
    this.#ballast = request.heap?.limitTo(this.#context, this.#limits.memoryBytes);
    // QuickJS's own limit still refuses any one allocation larger than the limit at once.
    this.#runtime.setMemoryLimit(this.#limits.memoryBytes);
    this.#runtime.setMaxStackSize(this.#limits.stackBytes);
    this.#runtime.setInterruptHandler(() => this.#shouldInterrupt());
  }

  async execute(): Promise<CodeRunResult> {
    const transpiled = transpileProgram(this.#request.source);
    if (!transpiled.ok) {
      return this.#failed({
        code: "syntax_error",
        message: `the program does not parse: ${transpiled.message}; fix the syntax and run it again`,
      });
    }
    const installed = this.#install();
    if (installed !== undefined) return this.#failed(installed);
    const evaluated = this.#slice(() => this.#context.evalCode(transpiled.code, "program.ts"));
    if (evaluated.error !== undefined) return this.#failed(this.#classify(this.#takeError(evaluated.error)));
    const promise = evaluated.value;
    try {
      return await this.#settle(promise);
    } finally {
      if (promise.alive) promise.dispose();
    }
  }

  /** The result of a run whose WebAssembly module failed under it. */
  brokenResult(): CodeRunResult {
    return this.#failed(this.#abort ?? sandboxFailure("the WebAssembly module failed"));
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#calls.abort(new Error("the program ended"));
    this.#wake?.();
    if (this.#broken) return;
    try {
      for (const deferred of this.#deferreds) if (deferred.alive) deferred.dispose();
      this.#deferreds.clear();
      this.#ballast?.dispose();
      this.#context.dispose();
      this.#runtime.dispose();
    } catch (error) {
      // A teardown failure must not become the caller's: the run's result stands.
      this.#request.logger?.warn?.("code-mode: disposing the sandbox failed", { error: describeCause(error) });
    }
  }

  /** Host functions, then the prelude. */
  #install(): CodeRunError | undefined {
    const context = this.#context;
    const callFunction = context.newFunction("__mcp_call", (idHandle, argsHandle) =>
      this.#hostCall(idHandle, argsHandle),
    );
    const logFunction = context.newFunction("__mcp_log", (levelHandle, textHandle) => {
      this.#log(context.getString(levelHandle), context.getString(textHandle));
    });
    context.setProp(context.global, "__mcp_call", callFunction);
    context.setProp(context.global, "__mcp_log", logFunction);
    callFunction.dispose();
    logFunction.dispose();
    const prelude = this.#slice(() => context.evalCode(preludeSource(this.#request.api), "prelude.js"));
    if (prelude.error !== undefined) return this.#classify(this.#takeError(prelude.error));
    prelude.value.dispose();
    return undefined;
  }

  async #settle(promise: QuickJSHandle): Promise<CodeRunResult> {
    const deadline = this.#started + this.#limits.totalTimeMs;
    for (;;) {
      const jobs = this.#slice(() => this.#runtime.executePendingJobs());
      // A job's error is the program's (an unhandled rejection); the main promise reports what matters.
      if (jobs.error !== undefined) {
        const error = this.#takeError(jobs.error);
        if (this.#abort === undefined && isLimitError(error)) this.#abort = this.#classify(error);
      }
      if (this.#abort !== undefined) return this.#failed(this.#abort);
      const state = this.#context.getPromiseState(promise);
      if (state.type === "fulfilled") {
        if (state.notAPromise === true) {
          state.value.dispose();
          return this.#failed({ code: "program_error", message: "the program did not run as an async function" });
        }
        return this.#fulfilled(state.value);
      }
      if (state.type === "rejected") return this.#failed(this.#classify(this.#takeError(state.error)));
      if (this.#deferreds.size === 0 && !this.#runtime.hasPendingJob()) {
        return this.#failed({
          code: "never_settles",
          message:
            "the program waits for a promise that nothing will settle (no tool call is pending); return a value or await a tool call",
        });
      }
      const remaining = deadline - this.#request.now();
      if (remaining <= 0 || !(await this.#waitForHost(remaining))) {
        return this.#failed(totalTimeLimitError(this.#limits));
      }
      const stopped = this.#stopReason();
      if (stopped !== undefined) return this.#failed(stopped);
    }
  }

  /** Read through a method: the host may stop the program while the loop awaits. */
  #stopReason(): CodeRunError | undefined {
    return this.#abort;
  }

  /** Waits until a tool call settles (true) or the time is up (false). */
  #waitForHost(ms: number): Promise<boolean> {
    if (this.#runtime.hasPendingJob()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.#wake = undefined;
          resolve(false);
        },
        Math.min(ms, 2_147_483_647),
      );
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve(true);
      };
    });
  }

  #hostCall(idHandle: QuickJSHandle, argsHandle: QuickJSHandle): QuickJSHandle {
    const context = this.#context;
    if (this.#toolCalls >= this.#limits.maxToolCalls) {
      this.#stop({
        code: "too_many_tool_calls",
        message: `the program made more than ${this.#limits.maxToolCalls} tool calls; batch the work or return early`,
      });
      // The interrupt handler stops the program at once; this error is what it sees until then.
      throw new Error("too many tool calls");
    }
    this.#toolCalls += 1;
    const id = context.getString(idHandle);
    const argsText = context.getString(argsHandle);
    const deferred = context.newPromise();
    this.#deferreds.add(deferred);
    void this.#callHost(id, argsText).then((outcome) => {
      if (this.#disposed || !deferred.alive) return;
      const answer = context.newString(JSON.stringify(outcome));
      deferred.resolve(answer);
      answer.dispose();
      deferred.dispose();
      this.#deferreds.delete(deferred);
      this.#wake?.();
    });
    return deferred.handle;
  }

  async #callHost(id: string, argsText: string): Promise<ToolCallOutcome> {
    try {
      const args: unknown = JSON.parse(argsText);
      return await this.#request.callTool(id, args, this.#calls.signal);
    } catch (error) {
      return { ok: false, error: describeCause(error), errorKind: "handler_error" };
    }
  }

  #log(level: string, text: string): void {
    const line = level === "log" ? text : `[${level}] ${text}`;
    // Counted with the newline that joins it to the next: the budget holds for the joined text.
    const cost = line.length + (this.#logs.length === 0 ? 0 : 1);
    if (this.#logChars + cost > this.#limits.maxLogChars) {
      this.#droppedLogLines += 1;
      this.#request.observer?.logDropped(this.#droppedLogLines);
      return;
    }
    this.#logChars += cost;
    this.#logs.push(line);
    this.#request.observer?.logKept(line);
  }

  #fulfilled(value: QuickJSHandle): CodeRunResult {
    try {
      if (this.#context.typeof(value) === "undefined") return this.#result({ ok: true });
      const json = this.#slice(() => this.#context.evalCode("JSON.stringify", "result.js"));
      if (json.error !== undefined) return this.#failed(this.#classify(this.#takeError(json.error)));
      const stringify = json.value;
      const text = this.#slice(() => this.#context.callFunction(stringify, this.#context.undefined, value));
      stringify.dispose();
      if (text.error !== undefined) {
        const error = this.#takeError(text.error);
        if (isLimitError(error) || this.#abort !== undefined) return this.#failed(this.#abort ?? this.#classify(error));
        return this.#failed({
          code: "result_not_serializable",
          message: `the returned value is not JSON data (${error.message}); return plain objects, arrays, strings and numbers`,
        });
      }
      try {
        if (this.#context.typeof(text.value) !== "string") return this.#result({ ok: true });
        // The string is within the sandbox's memory limit, so reading it is bounded too.
        const json = this.#context.getString(text.value);
        const length = json.length;
        if (length > this.#limits.maxResultChars) {
          return this.#failed({
            code: "result_too_large",
            message: `the returned value is ${length} characters of JSON, over the limit of ${this.#limits.maxResultChars}; return a summary, not the raw data`,
          });
        }
        return this.#result({ ok: true, value: JSON.parse(json) as unknown });
      } finally {
        text.value.dispose();
      }
    } finally {
      value.dispose();
    }
  }

  /** Runs interpreter work with the CPU clock running; the interrupt handler reads it. */
  #slice<T>(work: () => T): T {
    this.#sliceStart = this.#cpuNow();
    this.#request.observer?.sliceStarted(this.#sliceStart);
    try {
      return work();
    } catch (error) {
      // The WebAssembly module itself failed (V8's own stack ran out under deep recursion, or an
      // abort): this runtime is unusable; the run fails and its module is dropped, not disposed.
      this.#broken = true;
      this.#abort ??= HOST_STACK.test(describeCause(error))
        ? { code: "stack_overflow", message: "the program overflowed its stack (endless recursion?); use a loop" }
        : sandboxFailure(describeCause(error));
      throw new SandboxBroken();
    } finally {
      this.#cpuUsedMs += this.#cpuNow() - this.#sliceStart;
      this.#sliceStart = undefined;
      this.#request.observer?.sliceEnded(this.#cpuUsedMs);
    }
  }

  #shouldInterrupt(): boolean {
    if (this.#abort !== undefined) return true;
    if (this.#sliceStart === undefined) return false;
    if (this.#cpuUsedMs + (this.#cpuNow() - this.#sliceStart) <= this.#limits.cpuTimeMs) return false;
    this.#abort = cpuTimeLimitError(this.#limits);
    return true;
  }

  #stop(error: CodeRunError): void {
    this.#abort ??= error;
    this.#wake?.();
  }

  /** Reads a thrown value's fields and disposes its handle. */
  #takeError(handle: QuickJSHandle): ThrownValue {
    try {
      const context = this.#context;
      const field = (name: string): string | undefined => {
        if (context.typeof(handle) !== "object") return undefined;
        const property = context.getProp(handle, name);
        try {
          return context.typeof(property) === "string" ? context.getString(property) : undefined;
        } finally {
          property.dispose();
        }
      };
      if (context.typeof(handle) !== "object") return { name: "Error", message: describeCause(context.dump(handle)) };
      return {
        name: field("name") ?? "Error",
        message: field("message") ?? "",
        errorKind: field("errorKind"),
        tool: field("tool"),
      };
    } catch (error) {
      // The sandbox may be out of memory: reading the error failed for the same reason.
      return { name: "InternalError", message: `out of memory (${describeCause(error)})` };
    } finally {
      if (handle.alive) handle.dispose();
    }
  }

  #classify(error: ThrownValue): CodeRunError {
    if (this.#abort !== undefined) return this.#abort;
    const code = limitCode(error);
    // Out of memory, QuickJS may fail to build the error it throws: an empty one after the heap
    // refused to grow is that.
    if (code === "memory_limit" || (error.message === "" && this.#request.heap?.exhausted === true)) {
      return memoryLimitError(this.#limits);
    }
    if (code === "stack_overflow") {
      return { code, message: `the program overflowed its stack (${error.message}; endless recursion?); use a loop` };
    }
    if (code === "cpu_time_limit") return cpuTimeLimitError(this.#limits);
    if (error.name === "ToolCallError" && error.errorKind !== undefined) {
      return {
        code: "tool_call_failed",
        message: `${error.message}; catch the ToolCallError to go on without it, or fix the call`,
        errorKind: error.errorKind,
        ...(error.tool === undefined ? {} : { tool: error.tool }),
      };
    }
    return { code: "program_error", message: `the program threw ${error.name}: ${error.message}` };
  }

  #failed(error: CodeRunError): CodeRunResult {
    return this.#result({ ok: false, error });
  }

  #result(outcome: { ok: boolean; value?: unknown; error?: CodeRunError }): CodeRunResult {
    return {
      ...outcome,
      logs: this.#logs,
      droppedLogLines: this.#droppedLogLines,
      toolCalls: this.#toolCalls,
      durationMs: this.#request.now() - this.#started,
    };
  }
}

interface ThrownValue {
  readonly name: string;
  readonly message: string;
  readonly errorKind?: string | undefined;
  readonly tool?: string | undefined;
}

function limitCode(error: ThrownValue): CodeRunErrorCode | undefined {
  if (MEMORY_MESSAGE.test(error.message)) return "memory_limit";
  if (STACK_MESSAGE.test(error.message)) return "stack_overflow";
  if (error.name === "InternalError" && INTERRUPTED_MESSAGE.test(error.message)) return "cpu_time_limit";
  return undefined;
}

function isLimitError(error: ThrownValue): boolean {
  return limitCode(error) !== undefined;
}
