import type { MCPServerLogEntry, SamplingHandler } from "mcp-tool-adapter";
import type { MCPInputRequired, MCPRoot } from "@mcp-tool-adapter/adapter";
import type { ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import {
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequest,
  type InputRequests,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { ToolCapabilities } from "@mcp-tool-adapter/registry";
import { GatewayError, type GatewayErrorCode } from "./errors.js";

// The shapes a 2025 session's elicit() takes and gives, so a call routes like a session (RoutedClient).
type ElicitRequest = ElicitRequestFormParams | ElicitRequestURLParams;
type ElicitAnswer = ElicitResult;
type SamplingRequest = Parameters<SamplingHandler>[0];
type SamplingAnswer = Awaited<ReturnType<SamplingHandler>>;

/** An upstream's question during the call, waiting for the client's answer in a later round. */
type Question =
  | {
      readonly kind: "elicitation";
      readonly request: InputRequest;
      readonly answer: (result: ElicitAnswer) => void;
      readonly fail: (error: Error) => void;
    }
  | {
      readonly kind: "sampling";
      readonly request: InputRequest;
      readonly answer: (result: SamplingAnswer) => void;
      readonly fail: (error: Error) => void;
    }
  | {
      readonly kind: "roots";
      readonly request: InputRequest;
      readonly answer: (roots: readonly MCPRoot[]) => void;
      readonly fail: (error: Error) => void;
    };

/** The request of the client that this call answers now: the first call, or one of its retries. */
export interface CallRound {
  readonly ctx: ServerContext;
  readonly capabilities: ClientCapabilities | undefined;
  readonly progressToken: string | number | undefined;
}

/** How the upstream call ends: its result, or (a 2026-07-28 upstream) its own `input_required`, passed on as it is. */
export type UpstreamOutcome = { readonly result: CallToolResult } | { readonly upstreamInput: MCPInputRequired };

/**
 * What one round of a call ends with: the call's result, the questions the upstream asked with
 * requests of its own (a 2025-era upstream: the call waits here for the answers), or a 2026-07-28
 * upstream's `input_required` (the call is over here; the client's retry starts a new one).
 */
export type RoundOutcome = UpstreamOutcome | { readonly inputRequests: InputRequests };

/**
 * One tool call of a 2026-07-28 client whose upstream (a 2025-era connection, which asks with a
 * request of its own during the call) may ask for elicitation or sampling. The upstream call runs
 * in this gateway copy; each question it asks ends the client's current request with the question
 * (`input_required`), and the client's retry brings the answer, which goes up while the call waits.
 * Routed like a 2025 session: it is the `client` of the forwarded call.
 */
export class ModernCall {
  readonly server: string;
  readonly tool: string;
  /** The call's arguments and the gateway's view of its tool: what its requestState may need (held-call-retries.ts). */
  readonly args: Record<string, unknown>;
  readonly capabilities: ToolCapabilities;
  readonly #questions = new Map<string, Question>();
  readonly #abort = new AbortController();
  #asked = 0;
  #round: CallRound | undefined;
  /** What the client's latest request declared: an upstream may ask while the call waits parked between rounds. */
  #capabilities: ClientCapabilities | undefined;
  #outcome: UpstreamOutcome | { error: unknown } | undefined;
  #wake: (() => void) | undefined;

  constructor(target: { server: string; tool: string; args: Record<string, unknown>; capabilities: ToolCapabilities }) {
    this.server = target.server;
    this.tool = target.tool;
    this.args = target.args;
    this.capabilities = target.capabilities;
  }

  /** Aborts when the call ends early: the client cancelled a round, or nobody retried in time. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Starts the upstream call; its outcome or failure is what a later round returns. */
  run(call: Promise<UpstreamOutcome>): void {
    call.then(
      (outcome) => this.#settle(outcome),
      (error: unknown) => this.#settle({ error }),
    );
  }

  declares(capability: "elicitation" | "sampling" | "roots"): boolean {
    return this.#capabilities?.[capability] !== undefined;
  }

  elicit(request: ElicitRequest, signal: AbortSignal): Promise<ElicitAnswer> {
    const embedded =
      request.mode === "url"
        ? { method: "elicitation/create", params: { mode: "url", message: request.message, url: request.url } }
        : { method: "elicitation/create", params: request };
    return new Promise((answer, fail) => {
      this.#ask({ kind: "elicitation", request: embedded as InputRequest, answer, fail }, signal);
    });
  }

  sample(request: SamplingRequest, signal: AbortSignal): Promise<SamplingAnswer> {
    const embedded = { method: "sampling/createMessage", params: request };
    return new Promise((answer, fail) => {
      this.#ask({ kind: "sampling", request: embedded as InputRequest, answer, fail }, signal);
    });
  }

  /**
   * The upstream's `roots/list` during the call, asked of this call's client (2026-07-28 has roots
   * only as the answer to an `input_required`); undefined when the client did not declare roots.
   */
  listRoots(signal: AbortSignal): Promise<readonly MCPRoot[]> | undefined {
    if (!this.declares("roots")) return undefined;
    const embedded = { method: "roots/list" };
    return new Promise((answer, fail) => {
      this.#ask({ kind: "roots", request: embedded as InputRequest, answer, fail }, signal);
    });
  }

  /** Upstream progress, to the request answering now (a retry carries its own progress token). */
  progress(progress: { progress: number; total?: number; message?: string }): void {
    const round = this.#round;
    if (round?.progressToken === undefined) return;
    round.ctx.mcpReq
      .notify({ method: "notifications/progress", params: { progressToken: round.progressToken, ...progress } })
      .catch(() => undefined);
  }

  /** An upstream log message, on the request answering now (the SDK drops it below the request's log level). */
  log(entry: MCPServerLogEntry): void {
    const logger = entry.logger === undefined ? entry.serverName : `${entry.serverName}/${entry.logger}`;
    // Deprecated by 2026-07-28 (SEP-2577) yet part of it for the deprecation window: upstream
    // servers still log, and a client that asked for a log level in its envelope gets their logs.
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above
    this.#round?.ctx.mcpReq.log(entry.level, entry.data, logger).catch(() => undefined);
  }

  /**
   * Checks a retry's answers before any of them goes up: an answer of the wrong kind or shape (or one
   * the SDK dropped as not a bare result) fails the retry with InvalidParams naming the key, and the
   * call keeps waiting for a good retry. A missing answer is asked again.
   */
  checkAnswers(responses: Record<string, unknown> | undefined, dropped: readonly string[] | undefined): void {
    for (const [key, question] of this.#questions) {
      if (dropped?.includes(key)) throw invalidAnswer(key, question.kind, "it is not a bare result object");
      if (responses?.[key] === undefined) continue;
      const view = inputResponse(responses, key);
      if (view.kind !== ANSWER_KIND[question.kind])
        throw invalidAnswer(key, question.kind, `it reads as ${describeView(view.kind)}`);
      if (view.kind === "roots" && !view.roots.every(isFileRoot))
        throw invalidAnswer(key, question.kind, 'a root is not an object with a "file://" uri');
    }
  }

  /** Passes the (checked) answers up; each answered question leaves the list. */
  answer(responses: Record<string, unknown> | undefined): void {
    for (const [key, question] of [...this.#questions]) {
      if (responses?.[key] === undefined) continue;
      const view = inputResponse(responses, key);
      this.#questions.delete(key);
      if (question.kind === "elicitation" && view.kind === "elicit") {
        question.answer({
          action: view.action,
          ...(view.content === undefined ? {} : { content: view.content }),
        } as ElicitAnswer);
      } else if (question.kind === "sampling" && view.kind === "sampling") {
        question.answer(view.result as unknown as SamplingAnswer);
      } else if (question.kind === "roots" && view.kind === "roots") {
        question.answer(view.roots);
      }
    }
  }

  /**
   * Serves one round: waits for the call's result or the upstream's next questions, whichever
   * comes first. The client cancelling this round's request cancels the upstream call.
   */
  async serve(round: CallRound): Promise<RoundOutcome> {
    this.#round = round;
    this.#capabilities = round.capabilities;
    const cancel = (): void => {
      this.#abort.abort(round.ctx.mcpReq.signal.reason);
    };
    if (round.ctx.mcpReq.signal.aborted) cancel();
    round.ctx.mcpReq.signal.addEventListener("abort", cancel, { once: true });
    try {
      while (this.#outcome === undefined && this.#questions.size === 0) {
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
      // Questions asked together (several at once) go out in one input_required.
      if (this.#outcome === undefined) await new Promise((resolve) => setImmediate(resolve));
      const outcome = this.#outcome;
      if (outcome !== undefined) {
        if ("error" in outcome) throw outcome.error;
        return outcome;
      }
      return {
        inputRequests: Object.fromEntries([...this.#questions].map(([key, question]) => [key, question.request])),
      };
    } finally {
      round.ctx.mcpReq.signal.removeEventListener("abort", cancel);
      this.#round = undefined;
      this.#wake = undefined;
    }
  }

  /**
   * Ends a call that will get no answer (nobody retried in time, too many calls wait, the gateway
   * closes): elicitations answered `cancel`, sampling refused with `code`, the upstream call cancelled.
   */
  giveUp(reason: string, code: GatewayErrorCode): void {
    for (const question of this.#questions.values()) {
      if (question.kind === "elicitation") question.answer({ action: "cancel" });
      else question.fail(new GatewayError(code, reason));
    }
    this.#questions.clear();
    this.#abort.abort(new GatewayError(code, reason));
  }

  #ask(question: Question, signal: AbortSignal): void {
    const key = `upstream_${++this.#asked}`;
    this.#questions.set(key, question);
    signal.addEventListener(
      "abort",
      () => {
        if (this.#questions.delete(key))
          question.fail(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
      },
      { once: true },
    );
    this.#wake?.();
  }

  #settle(outcome: UpstreamOutcome | { error: unknown }): void {
    this.#outcome = outcome;
    this.#wake?.();
  }
}

/** The kind of answer (`inputResponse`'s view) each kind of question takes. */
const ANSWER_KIND = { elicitation: "elicit", sampling: "sampling", roots: "roots" } as const;

/** The answer each kind of question takes, as a retry's error names it. */
const ANSWER_SHAPE = {
  elicitation: "an elicitation result ({ action: accept | decline | cancel, content? })",
  sampling: "a sampling result ({ role, content, model })",
  roots: "a roots result ({ roots: [{ uri, name? }] })",
} as const;

function invalidAnswer(key: string, kind: Question["kind"], why: string): ProtocolError {
  const shape = ANSWER_SHAPE[kind];
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `inputResponses["${key}"] must answer the upstream's ${kind} request with ${shape}, but ${why}; retry with that answer (the call is still waiting).`,
    { code: "INPUT_RESPONSE_INVALID", key },
  );
}

function isFileRoot(root: unknown): boolean {
  const uri = (root as { uri?: unknown } | null)?.uri;
  return typeof uri === "string" && uri.startsWith("file://");
}

function describeView(kind: string): string {
  return kind === "missing" ? "none of the known answer shapes" : `a ${kind} answer`;
}
