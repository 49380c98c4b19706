import { MAX_TIMER_MS } from "@mcp-tool-adapter/core/value-rules";
import { describeCause, MCPUsageError, withoutFullStop } from "../errors.js";
import type { MCPToolResult } from "../types.js";
import type { ToolCallInfo, ToolCallInterceptor } from "./types.js";

const DEFAULT_INTERCEPTOR_TIMEOUT_MS = 10_000;

/** How the before stage ended: go on with these arguments and `_meta`, or stop with a failure. */
export type BeforeOutcome =
  | { readonly go: true; readonly call: CallState }
  | {
      readonly go: false;
      readonly call: CallState;
      readonly errorKind: "refused" | "interceptor_failed";
      readonly error: string;
    };

/** Builds a failed result from a kind and a message (the adapter's own, so it is timed and redacted). */
export type FailureBuilder = (
  errorKind: "refused" | "interceptor_failed",
  error: string,
  base?: MCPToolResult,
) => MCPToolResult;

type Stage = "beforeCall" | "afterCall" | "onError";

/** A call between stages; each hook gets it with a signal of its own. */
export type CallState = Omit<ToolCallInfo, "signal">;

/** The adapter's interceptors, checked once at construction and run around each call. */
export class InterceptorChain {
  readonly #interceptors: readonly ToolCallInterceptor[];

  constructor(interceptors: readonly ToolCallInterceptor[] | undefined) {
    this.#interceptors = Object.freeze([...(interceptors ?? [])].map(checkInterceptor));
  }

  get isEmpty(): boolean {
    return this.#interceptors.length === 0;
  }

  /** Runs every beforeCall in order; the first refusal or failure stops the call. */
  async before(call: CallState, callerSignal: AbortSignal | undefined): Promise<BeforeOutcome> {
    let current = call;
    for (const interceptor of this.#interceptors) {
      if (interceptor.beforeCall === undefined) continue;
      const step: HookStep = { interceptor, stage: "beforeCall", call: current };
      const ran = await runHook(step, callerSignal, (info) => interceptor.beforeCall?.(info));
      if (!ran.ok) return { go: false, call: current, errorKind: "interceptor_failed", error: ran.error };
      // Hooks may be plain JavaScript: check the shape instead of trusting the type.
      const decision: unknown = ran.value;
      if (decision === undefined || decision === null) continue;
      if (typeof decision !== "object") {
        return {
          go: false,
          call: current,
          errorKind: "interceptor_failed",
          error: failedMessage(
            interceptor,
            "beforeCall",
            current,
            `it returned ${typeof decision}; return nothing, { arguments?, meta? } or { refuse: "reason" }`,
          ),
        };
      }
      if ("refuse" in decision) {
        const { refuse } = decision;
        return {
          go: false,
          call: current,
          errorKind: "refused",
          error: `refused: interceptor "${interceptor.name}" refused the call to tool "${current.toolName}" on MCP server "${current.serverName}": ${withoutFullStop(typeof refuse === "string" ? refuse : describeCause(refuse))}`,
        };
      }
      const { arguments: args, meta } = decision as { arguments?: unknown; meta?: unknown };
      const problem = notARecord(args, "arguments") ?? notARecord(meta, "meta");
      if (problem !== undefined) {
        return {
          go: false,
          call: current,
          errorKind: "interceptor_failed",
          error: failedMessage(interceptor, "beforeCall", current, problem),
        };
      }
      current = {
        ...current,
        ...(args === undefined ? {} : { arguments: args as Record<string, unknown> }),
        ...(meta === undefined ? {} : { meta: meta as Record<string, unknown> }),
      };
    }
    return { go: true, call: current };
  }

  /** Runs afterCall (success) or onError (failure) hooks, last interceptor first. */
  async after(
    call: CallState,
    result: MCPToolResult,
    callerSignal: AbortSignal | undefined,
    fail: FailureBuilder,
  ): Promise<MCPToolResult> {
    let current = result;
    for (let index = this.#interceptors.length - 1; index >= 0; index -= 1) {
      const interceptor = this.#interceptors[index] as ToolCallInterceptor;
      const stage: Stage = current.success ? "afterCall" : "onError";
      if (interceptor[stage] === undefined) continue;
      const seen = current;
      const ran = await runHook({ interceptor, stage, call }, callerSignal, (info) => interceptor[stage]?.(info, seen));
      if (!ran.ok) {
        const ranNote = seen.success ? " The tool itself ran and succeeded; its result was discarded." : "";
        return fail("interceptor_failed", `${ran.error}.${ranNote}`, seen);
      }
      if (ran.value === undefined || ran.value === null) continue;
      if (!isResult(ran.value)) {
        return fail(
          "interceptor_failed",
          `${failedMessage(interceptor, stage, call, "it returned something that is not an MCPToolResult (needs success, data, error, durationMs)")}.`,
          seen,
        );
      }
      current = ran.value;
    }
    return current;
  }
}

type HookRun = { ok: true; value: unknown } | { ok: false; error: string };

/** Which interceptor's hook runs, at which stage, on which call. */
interface HookStep {
  readonly interceptor: ToolCallInterceptor;
  readonly stage: Stage;
  readonly call: CallState;
}

/** Runs one hook with its own deadline and signal; a throw, a rejection or a timeout is a failure, never a throw. */
async function runHook(
  step: HookStep,
  callerSignal: AbortSignal | undefined,
  hook: (call: ToolCallInfo) => unknown,
): Promise<HookRun> {
  const { interceptor, stage, call } = step;
  const timeoutMs = interceptor.timeoutMs ?? DEFAULT_INTERCEPTOR_TIMEOUT_MS;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onCallerAbort = (): void => {
    controller.abort(callerSignal?.reason);
  };
  callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  try {
    const value = await new Promise<unknown>((resolve, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`did not finish within ${timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
      if (callerSignal?.aborted === true) onCallerAbort();
      Promise.resolve()
        .then(() => hook({ ...call, signal: controller.signal }))
        .then(resolve, reject);
    });
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: failedMessage(interceptor, stage, call, describeCause(error)) };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
  }
}

function failedMessage(interceptor: ToolCallInterceptor, stage: Stage, call: CallState, why: string): string {
  return `interceptor failed: interceptor "${interceptor.name}" failed in ${stage} for tool "${call.toolName}" on MCP server "${call.serverName}": ${withoutFullStop(why)}`;
}

function notARecord(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return undefined;
  return `its ${field} must be an object, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`;
}

function isResult(value: unknown): value is MCPToolResult {
  if (typeof value !== "object" || value === null) return false;
  const result = value as Partial<MCPToolResult>;
  return (
    typeof result.success === "boolean" &&
    typeof result.durationMs === "number" &&
    "data" in result &&
    "error" in result
  );
}

function checkInterceptor(value: ToolCallInterceptor, index: number): ToolCallInterceptor {
  const given: unknown = value;
  const where = `interceptors[${index}]`;
  if (typeof given !== "object" || given === null) {
    throw new MCPUsageError(
      `${where} must be an object with a name and beforeCall / afterCall / onError hooks; got ${given === null ? "null" : typeof given}.`,
    );
  }
  const interceptor = given as Record<string, unknown>;
  if (typeof interceptor.name !== "string" || interceptor.name === "") {
    throw new MCPUsageError(`${where} needs a non-empty "name" (it is quoted in every message about the interceptor).`);
  }
  for (const stage of ["beforeCall", "afterCall", "onError"] as const) {
    if (interceptor[stage] !== undefined && typeof interceptor[stage] !== "function") {
      throw new MCPUsageError(
        `${where} ("${interceptor.name}"): ${stage} must be a function; got ${typeof interceptor[stage]}.`,
      );
    }
  }
  const { timeoutMs } = interceptor;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    throw new MCPUsageError(
      `${where} ("${interceptor.name}"): timeoutMs must be a positive number of milliseconds (at most ${MAX_TIMER_MS}); got ${describeCause(timeoutMs)}.`,
    );
  }
  return value;
}
