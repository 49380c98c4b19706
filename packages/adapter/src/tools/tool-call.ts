import { untilAborted } from "@mcp-tool-adapter/core";
import type { MCPEngineMessage, MCPEngineRequestOptions as RequestOptions } from "@mcp-tool-adapter/core";
import { omitNullOptionals } from "@mcp-tool-adapter/schema-validation";
import {
  callFailure,
  callResult,
  failure,
  failureWithData,
  reasonSuffix,
  type CallOutcomeContext,
} from "../call-outcome.js";
import type { RelatedCallTag } from "../client-features/related-call.js";
import type { ServerConnection } from "../connection/connection.js";
import { saysToolUnknown } from "../cache/unknown-tool.js";
import { describeCause } from "../errors.js";
import type { InterceptorChain } from "../interceptors/interceptor-chain.js";
import { invokeWithRecovery, type CallAttempt } from "../recovery/call-retry.js";
import { isSessionExpired, neverReachedServer } from "../recovery/call-safety.js";
import type { RequestSettlement, Session } from "../session.js";
import type { RecoveryPolicy } from "../recovery/options.js";
import { OTEL_GLOBAL_KEY, type Instrumentation, type TracedOperation } from "../telemetry/instrumentation.js";
import { clampTimer, positiveOr } from "../timeouts.js";
import { ToolCatalog, type CatalogEntry } from "../tool-catalog.js";
import type { ToolSync } from "../tool-sync.js";
import { createdTaskId } from "../tool-task.js";
import type { CapabilityOverridesByTool, InvokeOptions, Logger, MCPInputRetry, MCPToolResult } from "../types.js";

/** The options of a call given none: one shared record (nothing writes to it), not a new `{}` per call. */
const NO_INVOKE_OPTIONS: InvokeOptions = Object.freeze({});

/** What the call pipeline is built from; the facade fills it once. */
export interface ToolCallContext {
  readonly serverName: string;
  readonly logger: Logger | undefined;
  readonly now: () => number;
  readonly defaultTimeoutMs: number;
  /** How long an aborted task call keeps listening for its task id, to cancel the task. */
  readonly abortedTaskWaitMs: number;
  /** What the call-result builders read (validator, redactor, maxResultBytes, clock). */
  readonly outcome: CallOutcomeContext;
  /** The interceptors around every call (empty: the pipeline skips them). */
  readonly interceptors: InterceptorChain;
  readonly capabilityOverrides: CapabilityOverridesByTool | undefined;
  /** The live session, the recovery policy and supervisor, the instrumentation. */
  readonly connection: ServerConnection;
  readonly tools: ToolSync;
}

/**
 * One tool call as it goes through the pipeline. Made once per call (once per attempt under
 * recovery); every step reads it instead of a list of positional parameters. It is also the tag of
 * the call's request, which a server's request linked to the call comes back with (RelatedCallTag).
 */
interface ToolCall extends RelatedCallTag {
  readonly name: string;
  /** As the caller gave them; an interceptor's rewrite travels beside the record, not in it. */
  readonly args: Record<string, unknown>;
  readonly options: InvokeOptions;
  /** On the adapter's clock: every result's durationMs counts from here. */
  readonly start: number;
  /** The tools/call span, when telemetry observes. */
  traced: TracedOperation | undefined;
  /** Under recovery: what this attempt learns for the retry decision. */
  readonly attempt: CallAttempt | undefined;
}

/** The arguments and `_meta` the interceptors decided on. */
interface Intercepted {
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly meta: Readonly<Record<string, unknown>>;
}

/** What tools/call sends: `_meta` only when an interceptor or the trace context put something in it. */
type ToolCallParams = {
  name: string;
  arguments: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  /** A 2026-07-28 retry's answers and state (InvokeOptions.inputRequired). */
  inputResponses?: Readonly<Record<string, unknown>>;
  requestState?: string;
};

/**
 * The call pipeline: catalog lookup (discovering once when needed), the argument check, tool
 * pinning, the interceptors, recovery (wait, retry when safe), telemetry, and the request itself
 * (as an MCP task when the tool requires one). A step is a method taking the call record.
 */
export class ToolCalls {
  readonly #context: ToolCallContext;
  readonly #instrumentation: Instrumentation | undefined;
  readonly #recoveryPolicy: RecoveryPolicy | undefined;
  /** The deadline of a call given no timeoutMs, clamped once here instead of on every call. */
  readonly #defaultTimeoutMs: number;
  /** Whether any interceptor runs; the chain never changes, so this is asked once, not per call. */
  readonly #intercepting: boolean;

  constructor(context: ToolCallContext) {
    this.#context = context;
    this.#intercepting = !context.interceptors.isEmpty;
    this.#defaultTimeoutMs = clampTimer(context.defaultTimeoutMs);
    this.#instrumentation = context.connection.instrumentation;
    this.#recoveryPolicy = context.connection.recoveryPolicy;
  }

  /** Throws MCPNotConnectedError when not connected; every other failure is a result. */
  invoke(name: string, args: Record<string, unknown>, options: InvokeOptions | undefined): Promise<MCPToolResult> {
    const call: ToolCall = {
      name,
      args,
      options: options ?? NO_INVOKE_OPTIONS,
      start: this.#context.now(),
      traced: undefined,
      attempt: undefined,
    };
    const instrumentation = this.#instrumentation;
    // The cheap look first (a field and the global's presence), so an unobserved call never enters
    // the telemetry module; the instrumentation's own `observed` has the last word.
    if (
      instrumentation !== undefined &&
      (instrumentation.observedForSure || OTEL_GLOBAL_KEY in globalThis) &&
      instrumentation.observed
    )
      return this.#traced(call, instrumentation);
    // Not async: the plain call hands back the promise of the request itself, without the extra
    // promises and microtask turns an async wrapper adds to every call.
    try {
      return this.#recovering(call);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(describeCause(error)));
    }
  }

  async #traced(call: ToolCall, instrumentation: Instrumentation): Promise<MCPToolResult> {
    const { connection } = this.#context;
    // Not connected (and no recovery to wait for) throws before a span starts.
    if (this.#recoveryPolicy === undefined) connection.require(`invoke tool "${call.name}"`);
    const loading = instrumentation.ready();
    if (loading !== undefined) await loading;
    const traced = instrumentation.start("tools/call", { name: call.name }, connection.session?.connection.sessionId);
    call.traced = traced;
    let result: MCPToolResult | undefined;
    try {
      result = await this.#recovering(call);
      return result;
    } finally {
      const failedWith =
        result === undefined
          ? { errorType: "_OTHER", message: "invoke threw" }
          : result.success
            ? undefined
            : { errorType: result.errorKind ?? "_OTHER", message: result.error ?? "" };
      if (traced !== undefined)
        instrumentation.end(traced, result?.durationMs ?? this.#context.now() - call.start, failedWith);
    }
  }

  /** The call, sent again after a recovery when recovery is on and the call is safe to repeat. */
  #recovering(call: ToolCall): Promise<MCPToolResult> {
    const policy = this.#recoveryPolicy;
    if (policy !== undefined) return this.#withRecovery(call, policy);
    // The usual call, last (see JsonRpcSession's #receive on V8's tier-up): the tools of the live
    // session are known. (A session still open is the live one: the connection layer closes a
    // session as it replaces or drops it.)
    const listed = this.#context.tools.listed;
    return listed?.session.state === "open"
      ? this.#in(listed.catalog, listed.session, call)
      : this.#on(this.#context.connection.require(`invoke tool "${call.name}"`), call);
  }

  /** Recovery on: the call waits for a session and is sent again when safe to repeat. */
  #withRecovery(call: ToolCall, policy: RecoveryPolicy): Promise<MCPToolResult> {
    const { connection } = this.#context;
    const action = `invoke tool "${call.name}"`;
    return invokeWithRecovery({
      name: call.name,
      start: call.start,
      options: call.options,
      timeoutMs: this.#timeoutOf(call.options),
      maxRetries: policy.maxCallRetries,
      outcome: this.#context.outcome,
      waitForSession: (timeoutMs, signal) => connection.supervisor.waitForSession(timeoutMs, signal),
      notConnected: () => {
        throw connection.notConnected(action);
      },
      attempt: (options, attempt) => this.#on(connection.require(action), { ...call, options, attempt }),
    });
  }

  /** One call on `session`: the catalog first (a failed discovery is the call's result). */
  #on(session: Session, call: ToolCall): Promise<MCPToolResult> {
    const cachedOrPending = this.#context.tools.catalogFor(session);
    if (cachedOrPending instanceof ToolCatalog) return this.#in(cachedOrPending, session, call);
    return cachedOrPending.then(
      (catalog) => this.#in(catalog, session, call),
      (error: unknown) => {
        const lost = session.state !== "open";
        return failure(
          this.#context.outcome,
          call.start,
          lost ? "connection_lost" : "server_error",
          `${lost ? "connection lost" : "server error"}: could not list the tools of MCP server "${this.#context.serverName}" to find "${call.name}": ${describeCause(error)}`,
        );
      },
    );
  }

  /** The call once the session's tools are known: the name looked up (pinning says why one is missing). */
  #in(catalog: ToolCatalog, session: Session, call: ToolCall): Promise<MCPToolResult> {
    const { outcome, serverName } = this.#context;
    const { name, start } = call;
    const entry = catalog.get(name);
    const { tools } = this.#context;
    if (entry === undefined) {
      const withheld = tools.withheld(name);
      if (withheld !== undefined)
        return Promise.resolve(failure(outcome, start, "refused", `refused: ${withheld.message}`));
      // A listing from the cross-process cache may predate the tool: ask the server once.
      if (catalog.fromCache) return this.#relisted(session, call, (fresh) => this.#in(fresh, session, call));
      return Promise.resolve(
        failure(
          outcome,
          start,
          "not_found",
          `Tool "${name}" not found on MCP server "${serverName}"${catalog.filter.source === undefined ? "" : " (or excluded by the tool filter)"}; call discoverTools() to see the available tools.`,
        ),
      );
    }
    const given: unknown = call.args; // JavaScript callers may pass anything
    if (typeof given !== "object" || given === null || Array.isArray(given)) {
      return Promise.resolve(
        failure(outcome, start, "validation", `validation failed: arguments for tool "${name}" must be an object`),
      );
    }
    if (call.attempt !== undefined) call.attempt.capability = entry.capability(this.#context.capabilityOverrides);
    const sent = this.#intercepting
      ? this.#intercepted(call, session, entry)
      : this.#send(call, session, entry, undefined);
    // The usual return last (see JsonRpcSession's #receive on V8's tier-up).
    return catalog.fromCache ? this.#relistedIfDropped(sent, session, call) : sent;
  }

  /** A listing from the cross-process cache may name a tool the server dropped since: asked again once. */
  #relistedIfDropped(sent: Promise<MCPToolResult>, session: Session, call: ToolCall): Promise<MCPToolResult> {
    return sent.then((result) =>
      saysToolUnknown(result)
        ? this.#relisted(session, call, (fresh) =>
            fresh.get(call.name) === undefined ? this.#in(fresh, session, call) : result,
          )
        : result,
    );
  }

  /** `then` with the tools listed on the server again (the cache bypassed); a failed listing is the call's result. */
  #relisted(
    session: Session,
    call: ToolCall,
    then: (fresh: ToolCatalog) => Promise<MCPToolResult> | MCPToolResult,
  ): Promise<MCPToolResult> {
    return this.#context.tools.relist(session).then(then, (error: unknown) => {
      const lost = session.state !== "open";
      return failure(
        this.#context.outcome,
        call.start,
        lost ? "connection_lost" : "server_error",
        `${lost ? "connection lost" : "server error"}: could not list the tools of MCP server "${this.#context.serverName}" again to find "${call.name}" (the cached listing lacks it): ${describeCause(error)}`,
      );
    });
  }

  /** The call through the interceptors' before and after steps. */
  async #intercepted(call: ToolCall, session: Session, entry: CatalogEntry): Promise<MCPToolResult> {
    const { interceptors, outcome, serverName } = this.#context;
    const { signal } = call.options;
    const { decidedBy: _decidedBy, ...capabilities } = entry.capability(this.#context.capabilityOverrides);
    const before = await interceptors.before(
      { serverName, toolName: call.name, tool: entry.descriptor, capabilities, arguments: call.args, meta: {} },
      signal,
    );
    const result = before.go
      ? await this.#send(call, session, entry, before.call)
      : failure(outcome, call.start, before.errorKind, before.error);
    return interceptors.after(before.call, result, signal, (errorKind, error, base) =>
      failureWithData(outcome, call.start, { errorKind, error }, base?.data ?? null),
    );
  }

  /**
   * Checks the arguments (the interceptors' when they rewrote them), sends tools/call and builds
   * the result. Not async: the result is built in the one `then` that follows the request, so it
   * reaches the caller one promise turn after the answer (an async step here, awaiting the
   * request, added a turn and a suspended frame to every call).
   */
  #send(
    call: ToolCall,
    session: Session,
    entry: CatalogEntry,
    intercepted: Intercepted | undefined,
  ): Promise<MCPToolResult> {
    const { outcome } = this.#context;
    const { start, options, attempt } = call;
    const { name } = entry.descriptor;
    const given = intercepted === undefined ? call.args : intercepted.arguments;
    let args = given;
    let invalid = entry.checkInput(given, outcome.validator);
    if (invalid !== undefined) {
      // Models send null for optional parameters they mean to leave out. Such a null is invalid
      // where it stands, so valid arguments never hold one: the rule runs only after a refusal,
      // and the arguments checked again are the ones sent.
      args = omitNullOptionals(entry.descriptor.inputSchema, given);
      if (args !== given) invalid = entry.checkInput(args, outcome.validator);
      if (invalid !== undefined) return Promise.resolve(failure(outcome, start, "validation", invalid));
    }
    const { signal } = options;
    if (signal?.aborted === true) {
      return Promise.resolve(
        failure(
          outcome,
          start,
          "cancelled",
          `cancelled: the call to tool "${name}" was aborted before it was sent${reasonSuffix(signal.reason)}`,
        ),
      );
    }
    // The usual call (no timeoutMs) reads the default here: one call fewer per call.
    const timeoutMs = options.timeoutMs === undefined ? this.#defaultTimeoutMs : this.#timeoutOf(options);
    const requestOptions: RequestOptions = { timeout: timeoutMs, tag: call };
    const { inputRequired } = options;
    if (inputRequired !== undefined) requestOptions.allowInputRequired = true;
    if (options.resetTimeoutOnProgress === true) {
      requestOptions.resetTimeoutOnProgress = true;
      if (options.maxTotalTimeoutMs !== undefined)
        requestOptions.maxTotalTimeout = clampTimer(positiveOr(options.maxTotalTimeoutMs, timeoutMs));
    }
    const { onProgress } = options;
    if (onProgress !== undefined) {
      requestOptions.onprogress = (progress) => {
        try {
          onProgress(progress);
        } catch (error) {
          this.#context.logger?.warn?.(`An onProgress callback for tool "${name}" threw: ${describeCause(error)}`, {
            error,
          });
        }
      };
    }

    if (attempt !== undefined) attempt.sent = true;
    const settle: RequestSettlement<MCPToolResult> = {
      answered: (raw) =>
        inputRequired !== undefined && isInputRequired(raw)
          ? inputRequiredResult(outcome, start, raw, name)
          : callResult(outcome, start, raw, entry),
      failed: (error) => {
        if (attempt !== undefined) {
          if (neverReachedServer(error, session.connection)) attempt.sent = false;
          attempt.sessionExpired = isSessionExpired(error, session.connection);
        }
        return callFailure(
          outcome,
          { start, name, signal, timeoutMs, maxTotalMs: requestOptions.maxTotalTimeout },
          error,
        );
      },
    };
    try {
      // The usual call (no interceptor, no trace, no retry) builds its params here, in the shape
      // #params gives them: two calls fewer per call, each run unoptimized for its first some 500.
      const params =
        intercepted === undefined && call.traced === undefined && inputRequired === undefined
          ? { name, arguments: args }
          : withInputRetry(this.#params(name, args, intercepted?.meta, call.traced), inputRequired);
      return entry.requiresTask
        ? this.#asTask(session, params, requestOptions, signal).then(settle.answered, settle.failed)
        : session.requestThen({ method: "tools/call", params }, requestOptions, signal, settle);
    } catch (error) {
      return Promise.resolve(settle.failed(error));
    }
  }

  /** The call's deadline: its timeoutMs when positive, else the adapter's default; clamped for setTimeout. */
  #timeoutOf(options: InvokeOptions): number {
    return options.timeoutMs === undefined
      ? this.#defaultTimeoutMs
      : clampTimer(positiveOr(options.timeoutMs, this.#context.defaultTimeoutMs));
  }

  /** tools/call params; `_meta` carries the interceptors' fields and the trace context, when there are any. */
  #params(
    name: string,
    args: Readonly<Record<string, unknown>>,
    meta: Readonly<Record<string, unknown>> | undefined,
    traced: TracedOperation | undefined,
  ): ToolCallParams {
    let sent: Record<string, unknown> | undefined =
      meta === undefined || Object.keys(meta).length === 0 ? undefined : { ...meta };
    if (traced !== undefined) {
      const carrier = sent ?? {};
      if (this.#instrumentation?.inject(traced, carrier) === true) sent = carrier;
    }
    return sent === undefined ? { name, arguments: args } : { name, arguments: args, _meta: sent };
  }

  /**
   * Calls a tool that must run as an MCP task: tools/call with `task` creates it, then
   * tasks/result waits (the server blocks it) for the final CallToolResult, and carries the
   * requests the task makes meanwhile (an elicitation, a sampling request) to our handlers. Both
   * steps share the call's timeout. A call given up on (timeout, abort) cancels the task, so the
   * server stops working for nobody; that includes an abort before the task id arrived: the caller
   * gets the abort at once, and the creating request keeps listening (abortedTaskWaitMs) for the
   * id to cancel. It is not told to cancel itself (an SDK server then drops its answer, and with
   * it the only handle on a task it may already have created).
   */
  async #asTask(
    session: Session,
    params: ToolCallParams,
    options: RequestOptions,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const { now, defaultTimeoutMs } = this.#context;
    const started = now();
    const create = { method: "tools/call", params: { ...params, task: {} } };
    const created =
      signal === undefined
        ? await session.request(create, options)
        : await this.#createUnlessAborted(session, { create, options, signal, tool: params.name });
    const taskId = createdTaskId(created);
    // A server that ran the call at once answers with the result itself.
    if (taskId === undefined) return created;
    const timeout = Math.max(1, (options.timeout ?? defaultTimeoutMs) - (now() - started));
    try {
      return await session.request({ method: "tasks/result", params: { taskId } }, { ...options, timeout }, signal);
    } catch (error) {
      this.#cancelTask(session, taskId, params.name);
      throw error;
    }
  }

  /**
   * The creating tools/call, settled with the abort as soon as `signal` aborts; the request itself
   * listens on for abortedTaskWaitMs more, and a task that still arrives is cancelled.
   */
  #createUnlessAborted(
    session: Session,
    step: { create: MCPEngineMessage; options: RequestOptions; signal: AbortSignal; tool: string },
  ): Promise<unknown> {
    const { signal } = step;
    const listening = new AbortController();
    let stopListening: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      stopListening = setTimeout(() => listening.abort(signal.reason), this.#context.abortedTaskWaitMs);
      // Listening on never keeps a process alive that has nothing else to do.
      stopListening.unref();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    const creating = session.request(step.create, step.options, listening.signal).finally(() => {
      signal.removeEventListener("abort", onAbort);
      clearTimeout(stopListening);
    });
    return untilAborted(creating, signal, (late) => {
      const taskId = createdTaskId(late);
      if (taskId !== undefined) this.#cancelTask(session, taskId, step.tool);
    });
  }

  /** Ends a task the caller gave up on; a failure to do so is only logged (the caller has its answer). */
  #cancelTask(session: Session, taskId: string, tool: string): void {
    if (session.state !== "open") return;
    session.connection.request({ method: "tasks/cancel", params: { taskId } }).catch((cancelError: unknown) => {
      this.#context.logger?.debug?.(
        `Could not cancel task "${taskId}" of tool "${tool}": ${describeCause(cancelError)}`,
      );
    });
  }
}

/** A retry's answers and state, beside the call's params (only the fields it has). */
function withInputRetry(params: ToolCallParams, retry: MCPInputRetry | undefined): ToolCallParams {
  if (retry === undefined || (retry.inputResponses === undefined && retry.requestState === undefined)) return params;
  return {
    ...params,
    ...(retry.inputResponses === undefined ? {} : { inputResponses: retry.inputResponses }),
    ...(retry.requestState === undefined ? {} : { requestState: retry.requestState }),
  };
}

function isInputRequired(raw: unknown): raw is { inputRequests?: unknown; requestState?: unknown } {
  return (raw as { resultType?: unknown } | null)?.resultType === "input_required";
}

/** A server's input_required, handed back as it came (the caller asked for it: InvokeOptions.inputRequired). */
function inputRequiredResult(
  outcome: CallOutcomeContext,
  start: number,
  raw: { inputRequests?: unknown; requestState?: unknown },
  name: string,
): MCPToolResult {
  const inputRequests =
    typeof raw.inputRequests === "object" && raw.inputRequests !== null
      ? (raw.inputRequests as Record<string, unknown>)
      : {};
  return {
    ...failure(
      outcome,
      start,
      "input_required",
      `input required: tool "${name}" on MCP server "${outcome.serverName}" asks for input before it answers (${Object.keys(inputRequests).join(", ") || "no request, state only"})`,
    ),
    inputRequired: {
      inputRequests,
      ...(typeof raw.requestState === "string" ? { requestState: raw.requestState } : {}),
    },
  };
}
