import type { ClientCapabilities, ElicitRequest } from "@modelcontextprotocol/sdk/types.js";
import type { MCPEngineRequestHandler } from "@mcp-tool-adapter/core";
import { timerDelayOr } from "@mcp-tool-adapter/core/value-rules";
import type { SchemaValidator } from "@mcp-tool-adapter/schema-validation";
import { describeCause } from "../errors.js";
import type { Session } from "../session.js";
import type { Logger } from "../types.js";
import { checkElicitationAnswer, toElicitationRequest } from "./elicitation.js";
import { callHostHandler } from "./host-handler.js";
import { ClientTasks } from "./client-tasks.js";
import { relatedCallOf } from "./related-call.js";
import { checkRoots } from "./roots.js";
import type { ElicitationHandler, MCPRoot, MCPSamplingRequest, RootsListHandler, SamplingHandler } from "./types.js";

const DEFAULT_CLIENT_REQUEST_TIMEOUT_MS = 300_000;

export interface ClientFeatureOptions {
  onElicitation?: ElicitationHandler | undefined;
  onSampling?: SamplingHandler | undefined;
  samplingTools?: boolean | undefined;
  roots?: readonly MCPRoot[] | undefined;
  onRootsList?: RootsListHandler | undefined;
  clientRequestTimeoutMs?: number | undefined;
}

export interface ClientFeaturesContext {
  readonly serverName: string;
  readonly logger: Logger | undefined;
  readonly validator: SchemaValidator;
  current(): Session | undefined;
}

/**
 * What the client offers the server: elicitation, sampling and roots, each declared only when
 * the host gave what it needs (a handler, a list of roots). A request for an undeclared feature
 * finds no handler and gets "method not found" from the SDK at once.
 */
export class ClientFeatures {
  readonly #context: ClientFeaturesContext;
  readonly #options: ClientFeatureOptions;
  readonly #timeoutMs: number;
  #roots: readonly MCPRoot[] | undefined;

  constructor(context: ClientFeaturesContext, options: ClientFeatureOptions) {
    this.#context = context;
    this.#options = options;
    this.#timeoutMs = timerDelayOr(options.clientRequestTimeoutMs, DEFAULT_CLIENT_REQUEST_TIMEOUT_MS);
    this.#roots =
      options.roots === undefined
        ? undefined
        : checkRoots(options.roots, `The "roots" option of MCP server "${context.serverName}"`);
  }

  /** The capabilities a new session's client declares. */
  capabilities(): ClientCapabilities {
    const { onElicitation, onSampling, samplingTools } = this.#options;
    return {
      ...(onElicitation === undefined ? {} : { elicitation: { form: {}, url: {} } }),
      ...(onSampling === undefined ? {} : { sampling: samplingTools === true ? { tools: {} } : {} }),
      ...(this.#roots === undefined ? {} : { roots: { listChanged: true } }),
      ...(onElicitation === undefined && onSampling === undefined
        ? {}
        : {
            // Requests we can run as tasks: those we have a handler for (see ClientTasks).
            tasks: {
              list: {},
              cancel: {},
              requests: {
                ...(onElicitation === undefined ? {} : { elicitation: { create: {} } }),
                ...(onSampling === undefined ? {} : { sampling: { createMessage: {} } }),
              },
            },
          }),
    };
  }

  get roots(): readonly MCPRoot[] {
    return this.#roots ?? [];
  }

  /** The handlers of the declared features' requests, by method, for a new session (the engine checked their params). */
  requestHandlers(): Record<string, MCPEngineRequestHandler> {
    const { serverName, logger, validator } = this.#context;
    const { onElicitation, onSampling } = this.#options;
    const handlers: Record<string, MCPEngineRequestHandler> = {};
    if (onElicitation !== undefined) {
      handlers["elicitation/create"] = (params, extra) => {
        const elicitation = toElicitationRequest(params as ElicitRequest["params"], validator);
        return callHostHandler({
          what: "elicitation/create",
          serverName,
          timeoutMs: this.#timeoutMs,
          serverSignal: extra.signal,
          relatedCall: relatedCallOf(extra),
          logger,
          run: async (context) =>
            checkElicitationAnswer(elicitation, await onElicitation(elicitation, context), validator),
        });
      };
    }
    if (onSampling !== undefined) {
      handlers["sampling/createMessage"] = (params, extra) =>
        callHostHandler({
          what: "sampling/createMessage",
          serverName,
          timeoutMs: this.#timeoutMs,
          serverSignal: extra.signal,
          relatedCall: relatedCallOf(extra),
          logger,
          run: (context) => onSampling(Object.freeze({ ...(params as unknown as MCPSamplingRequest) }), context),
        });
    }
    if (onElicitation !== undefined || onSampling !== undefined) addTaskHandlers(handlers, new ClientTasks());
    if (this.#roots !== undefined) {
      const { onRootsList } = this.#options;
      handlers["roots/list"] =
        onRootsList === undefined
          ? () => ({ roots: this.roots.map((root) => ({ ...root })) })
          : (_params, extra) =>
              callHostHandler({
                what: "roots/list",
                serverName,
                timeoutMs: this.#timeoutMs,
                serverSignal: extra.signal,
                relatedCall: relatedCallOf(extra),
                logger,
                run: async (context) => {
                  const roots = await onRootsList({ ...context, roots: this.roots });
                  return {
                    roots: checkRoots(roots, `The roots the onRootsList handler gave MCP server "${serverName}"`).map(
                      (root) => ({ ...root }),
                    ),
                  };
                },
              });
    }
    return handlers;
  }

  /**
   * Replaces the roots and tells the server (`notifications/roots/list_changed`). Roots set on an
   * adapter made without them are declared from the next connect on.
   */
  async setRoots(roots: readonly MCPRoot[]): Promise<void> {
    const declared = this.#roots !== undefined;
    this.#roots = checkRoots(roots, `setRoots() for MCP server "${this.#context.serverName}"`);
    const session = this.#context.current();
    if (session === undefined || !declared) return;
    try {
      await session.connection.notify({ method: "notifications/roots/list_changed" });
    } catch (error) {
      this.#context.logger?.warn?.(
        `Telling MCP server "${this.#context.serverName}" that the roots changed failed: ${describeCause(error)}`,
        { error },
      );
    }
  }
}

/**
 * The client side of MCP tasks for one session: elicitation and sampling run as a task when the
 * server asks (`params.task`), answered at once with the task; tasks/get, tasks/result, tasks/list
 * and tasks/cancel follow it. The handler's context signal aborts on tasks/cancel (the
 * server's request is answered already, so its own signal no longer applies).
 */
function addTaskHandlers(handlers: Record<string, MCPEngineRequestHandler>, tasks: ClientTasks): void {
  for (const method of ["elicitation/create", "sampling/createMessage"]) {
    const answer = handlers[method];
    if (answer === undefined) continue;
    handlers[method] = (params, extra) => {
      const requested = params.task as { ttl?: number } | undefined;
      if (requested === undefined) return answer(params, extra);
      const { task: _task, ...request } = params;
      // The task's signal replaces the server request's (answered at once); the call it belongs to stays.
      return tasks.create((signal) => Promise.resolve(answer(request, { ...extra, signal })), requested.ttl);
    };
  }
  handlers["tasks/get"] = (params) => tasks.get(params.taskId);
  handlers["tasks/result"] = (params) => tasks.result(params.taskId);
  handlers["tasks/list"] = () => tasks.list();
  handlers["tasks/cancel"] = (params) => tasks.cancel(params.taskId);
}
