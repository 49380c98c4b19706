import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import {
  holdsProcessOpen,
  MCPProtocolError,
  SENT_AT_ONCE,
  type MCPEngineListeners,
  type MCPEngineMessage,
  type MCPEngineRequestOptions,
  type MCPEngineRequestContext,
  type MCPEngineRequestHandler,
  type MCPIncomingMessageExtra,
  type MCPProgress,
} from "@mcp-tool-adapter/core";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import { wrapBareResult } from "../legacy-result-transport.js";
import { RpcCode } from "../rpc-error.js";
import { clientRequestAnswers, errorReply } from "./client-requests.js";
import {
  classifyMessage,
  onlyResultKeys,
  type IncomingError,
  type IncomingNotification,
  type IncomingRequest,
  type IncomingResult,
} from "./json-rpc-shapes.js";
import { isFollowedNotification, notificationProblem } from "./notification-checks.js";
import { DeadlineTimer, PendingRequest, type PendingRequestOwner } from "./pending-request.js";

export interface JsonRpcSessionOptions {
  readonly listeners: MCPEngineListeners;
  readonly requestHandlers: Readonly<Record<string, MCPEngineRequestHandler>>;
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Hears every transport or protocol error, besides the error listener (the handshake keeps the last). */
  readonly onError?: (error: Error) => void;
}

/**
 * A JSON-RPC 2.0 session over one SDK 1.x-shaped Transport: numbered requests matched to their
 * responses, the server's requests answered, its notifications routed. It does what SDK 1.x's
 * Protocol does for a client, minus the Zod parse of every message and the task machinery this
 * client never uses.
 */
export class JsonRpcSession implements PendingRequestOwner {
  readonly #transport: Transport;
  readonly #listeners: MCPEngineListeners;
  readonly #onError: ((error: Error) => void) | undefined;
  readonly #capabilities: Readonly<Record<string, unknown>>;
  readonly #answers: Map<string, (request: IncomingRequest, context: MCPEngineRequestContext) => Promise<unknown>>;
  readonly #pending = new Map<number, PendingRequest>();
  readonly #deadlines: DeadlineTimer;
  /** Progress listeners of requests answered with a task: the task's progress keeps its token. */
  readonly #taskProgress = new Map<number, (progress: MCPProgress) => void>();
  /** The server's requests being answered, by id: a cancellation or the close aborts them. */
  readonly #answering = new Map<string | number, AbortController>();
  /** The send promise the last requests were written with, and those requests (see #failWithSend). */
  #sharedSend: Promise<void> | undefined;
  #sharedSenders: PendingRequest[] = [];
  #nextId = 0;
  /** Requests with a lower id were abandoned by the host: their answers are dropped without a word. */
  #abandonedBelow = 0;
  #open = false;

  constructor(transport: Transport, options: JsonRpcSessionOptions) {
    this.#transport = transport;
    this.#deadlines = new DeadlineTimer((now) => this.#expireDue(now), undefined, {
      holdProcess: !holdsProcessOpen(transport),
    });
    this.#listeners = options.listeners;
    this.#onError = options.onError;
    this.#capabilities = options.capabilities;
    this.#answers = clientRequestAnswers(options.requestHandlers, options.capabilities);
  }

  /** Whether the transport is still ours (it has not reported its close). */
  get open(): boolean {
    return this.#open;
  }

  get transport(): Transport {
    return this.#transport;
  }

  async start(): Promise<void> {
    const transport = this.#transport;
    transport.onmessage = this.#receive;
    transport.onerror = (error: Error) => {
      this.#error(error);
    };
    transport.onclose = () => {
      this.#closed();
    };
    this.#open = true;
    await transport.start();
  }

  request(message: MCPEngineMessage, options?: MCPEngineRequestOptions): Promise<unknown> {
    if (!this.#open) return Promise.reject(new Error("Not connected"));
    try {
      options?.signal?.throwIfAborted();
    } catch (reason) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the abort reason, passed on unchanged
      return Promise.reject(reason);
    }
    const id = this.#nextId++;
    const pending = new PendingRequest(id, options, this);
    let params = message.params;
    if (pending.onprogress !== undefined) {
      const meta = params?._meta as Record<string, unknown> | undefined;
      params = { ...params, _meta: { ...meta, progressToken: id } };
    }
    this.#pending.set(id, pending);
    const outgoing = (
      params === undefined
        ? { jsonrpc: "2.0", id, method: message.method }
        : { jsonrpc: "2.0", id, method: message.method, params }
    ) as JSONRPCMessage;
    let sent: Promise<void>;
    try {
      sent = this.#transport.send(outgoing);
    } catch (error) {
      // A transport that throws instead of rejecting fails this request, not the caller.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the transport's failure, passed on unchanged
      sent = Promise.reject(error);
    }
    // After the send: a transport that writes at once (stdio) has the request on its way before
    // the timer is touched (no timer fires before this returns). Unless an answer came during
    // send() (an in-process transport may answer at once): a timer for nothing would hold the
    // process open.
    if (this.#pending.get(id) === pending) this.#deadlines.watch(pending.deadline);
    // Written before send() returned (core's SENT_AT_ONCE): no failure can follow.
    if (sent !== SENT_AT_ONCE) this.#failWithSend(sent, pending);
    return pending.promise;
  }

  /**
   * Fails `pending` with its send's failure, if the send fails while it waits. Requests written
   * together (a transport's batch, one promise for all of them) share one listener: with many
   * calls in flight a listener each cost every request a closure, a promise and a microtask.
   */
  #failWithSend(sent: Promise<void>, pending: PendingRequest): void {
    if (sent === this.#sharedSend) {
      this.#sharedSenders.push(pending);
      return;
    }
    const senders = [pending];
    this.#sharedSend = sent;
    this.#sharedSenders = senders;
    sent.then(
      () => {
        this.#forgetSharedSend(sent);
      },
      (error: unknown) => {
        this.#forgetSharedSend(sent);
        for (const request of senders) {
          if (this.#pending.get(request.id) !== request) continue;
          this.#forget(request.id);
          request.reject(error);
        }
      },
    );
  }

  /** A shared send settled: later sends cannot join it (nor keep its requests alive). */
  #forgetSharedSend(sent: Promise<void>): void {
    if (this.#sharedSend !== sent) return;
    this.#sharedSend = undefined;
    this.#sharedSenders = [];
  }

  async notify(message: MCPEngineMessage): Promise<void> {
    if (!this.#open) throw new Error("Not connected");
    if (
      message.method === "notifications/roots/list_changed" &&
      (this.#capabilities.roots as { listChanged?: unknown } | undefined)?.listChanged !== true
    ) {
      throw new Error(`Client does not support roots list changed notifications (required for ${message.method})`);
    }
    const outgoing = { jsonrpc: "2.0", ...message } as JSONRPCMessage;
    await this.#transport.send(outgoing);
  }

  close(): Promise<void> {
    return this.#transport.close();
  }

  /** Rejects every request in flight with `error` and forgets them; the server is not told (the host is closing). */
  abandonRequests(error: Error): void {
    this.#abandonedBelow = this.#nextId;
    this.#rejectAll(error);
  }

  /** Gives up on a request: forgets it, tells the server (`notifications/cancelled`), rejects it. */
  cancel(pending: PendingRequest, reason: unknown): void {
    if (this.#pending.get(pending.id) !== pending) return;
    this.#forget(pending.id);
    if (this.#open) {
      const cancelled = {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: pending.id, reason: String(reason) },
      } as JSONRPCMessage;
      this.#transport.send(cancelled).catch((error: unknown) => {
        this.#error(new Error(`Failed to send cancellation: ${String(error)}`));
      });
    }
    pending.rejectCancelled(reason);
  }

  /**
   * The transport's onmessage itself (an arrow, so no wrapper call sits between them on every
   * message). The usual message, the result of a request in flight, is settled without the
   * classification's record and the bare-result wrapper (both leave such a message as it is); a
   * message the quick look does not pass (an error, a request, a bare result, anything malformed)
   * takes the full path. That path comes first and the usual one last: V8 tiers a function up
   * after a number of calls scaled by the share of its bytecode each call runs up to its return,
   * so a usual path that returned early kept this function unoptimized for some 1,300 calls.
   * `extra` may name the request a server's own request belongs to (see MCPIncomingMessageExtra).
   */
  readonly #receive = (raw: JSONRPCMessage, extra?: MessageExtraInfo & MCPIncomingMessageExtra): void => {
    const id = (raw as { id?: unknown }).id;
    const result = (raw as { result?: unknown }).result;
    const pending =
      typeof id === "number" &&
      isRecord(result) &&
      (raw as { jsonrpc?: unknown }).jsonrpc === "2.0" &&
      Number.isInteger(id) &&
      onlyResultKeys(raw)
        ? this.#pending.get(id)
        : undefined;
    if (pending === undefined) {
      this.#receiveClassified(raw, extra);
      return;
    }
    this.#resolve(pending, result as Record<string, unknown>);
  };

  /** Any message but the result of a request in flight: classified, then handled by its kind. */
  #receiveClassified(raw: JSONRPCMessage, extra: MCPIncomingMessageExtra | undefined): void {
    const message = classifyMessage(wrapBareResult(raw));
    if (message === undefined) {
      this.#error(new Error(`Unknown message type: ${JSON.stringify(raw)}`));
      return;
    }
    switch (message.kind) {
      case "result":
      case "error":
        this.#response(message);
        return;
      case "request":
        this.#serverRequest(message, extra?.relatedRequestId);
        return;
      case "notification":
        this.#notification(message);
    }
  }

  #response(message: IncomingResult | IncomingError): void {
    const id = Number(message.id);
    const pending = this.#pending.get(id);
    if (pending === undefined) {
      if (id < this.#abandonedBelow) return;
      this.#error(new Error(`Received a response for an unknown message ID: ${JSON.stringify(message)}`));
      return;
    }
    if (message.kind === "error") {
      this.#forget(id);
      const { code, message: text, data } = message.error;
      pending.reject(new MCPProtocolError(code, text, data === undefined ? {} : { data }));
      return;
    }
    this.#resolve(pending, message.result);
  }

  /** A request's result arrived: forget the request, resolve it (a task's progress keeps its listener). */
  #resolve(pending: PendingRequest, result: Record<string, unknown>): void {
    const { id } = pending;
    this.#forget(id);
    if (pending.onprogress !== undefined && isTaskCreated(result)) this.#taskProgress.set(id, pending.onprogress);
    pending.resolve(result);
  }

  #notification(message: IncomingNotification): void {
    const { method } = message;
    if (method === "notifications/progress") {
      this.#progress(message);
      return;
    }
    if (method === "notifications/cancelled") {
      this.#serverCancelled(message);
      return;
    }
    if (!isFollowedNotification(method)) return;
    // Heard on a later microtask, as SDK 1.x delivers notifications (after the message that carried it is handled).
    queueMicrotask(() => {
      const problem = notificationProblem(method, message.params);
      if (problem !== undefined) {
        this.#error(new Error(`Invalid ${method} notification from the server: ${problem}`));
        return;
      }
      this.#listeners.notification(message.params === undefined ? { method } : { method, params: message.params });
    });
  }

  /** `notifications/cancelled`: aborts the answer to that request, when its id is one (as SDK 1.x's schema would pass it). */
  #serverCancelled(message: IncomingNotification): void {
    const params = message.params;
    const requestId = params?.requestId;
    if (typeof requestId !== "string" && !Number.isSafeInteger(requestId)) return;
    const reason = params?.reason;
    if (reason !== undefined && typeof reason !== "string") return;
    this.#answering.get(requestId as string | number)?.abort(reason);
  }

  #progress(message: IncomingNotification): void {
    const params = message.params;
    const token = params?.progressToken;
    if (
      params === undefined ||
      (typeof token !== "string" && !Number.isInteger(token)) ||
      typeof params.progress !== "number" ||
      (params.total !== undefined && typeof params.total !== "number") ||
      (params.message !== undefined && typeof params.message !== "string")
    ) {
      this.#error(new Error(`Invalid progress notification from the server: ${JSON.stringify(message)}`));
      return;
    }
    const id = Number(token);
    const pending = this.#pending.get(id);
    const onprogress = pending?.onprogress ?? this.#taskProgress.get(id);
    if (onprogress === undefined) {
      this.#error(new Error(`Received a progress notification for an unknown token: ${JSON.stringify(message)}`));
      return;
    }
    if (pending !== undefined) {
      const expired = pending.progressed();
      if (expired !== undefined) {
        this.#forget(id);
        pending.reject(expired);
        return;
      }
    }
    const { progressToken: _token, ...progress } = params;
    onprogress(progress as unknown as MCPProgress);
  }

  /** Answers a server's request; `relatedRequestId` is ours that the transport says it belongs to. */
  #serverRequest(request: IncomingRequest, relatedRequestId: string | number | undefined): void {
    const answer = this.#answers.get(request.method);
    const transport = this.#transport;
    if (answer === undefined) {
      const refusal = {
        jsonrpc: "2.0",
        id: request.id,
        error: { code: RpcCode.MethodNotFound, message: "Method not found" },
      } as JSONRPCMessage;
      transport.send(refusal).catch((error: unknown) => {
        this.#error(new Error(`Failed to send an error response: ${String(error)}`));
      });
      return;
    }
    const controller = new AbortController();
    this.#answering.set(request.id, controller);
    // Our ids are numbers; the request it belongs to is known only while it is in flight.
    const related = relatedRequestId === undefined ? undefined : this.#pending.get(Number(relatedRequestId));
    const context: MCPEngineRequestContext =
      related?.tag === undefined
        ? { signal: controller.signal }
        : { signal: controller.signal, relatedTag: related.tag };
    answer(request, context)
      .then(
        (result) =>
          controller.signal.aborted
            ? undefined
            : transport.send({ jsonrpc: "2.0", id: request.id, result } as JSONRPCMessage),
        (error: unknown) =>
          controller.signal.aborted
            ? undefined
            : transport.send({ jsonrpc: "2.0", id: request.id, error: errorReply(error) }),
      )
      .catch((error: unknown) => {
        this.#error(new Error(`Failed to send response: ${String(error)}`));
      })
      .finally(() => {
        if (this.#answering.get(request.id) === controller) this.#answering.delete(request.id);
      });
  }

  /** A request is answered or given up on. */
  #forget(id: number): void {
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#deadlines.idle();
  }

  /** Times out the requests whose deadline has passed; returns the earliest deadline left (Infinity when none). */
  #expireDue(now: number): number {
    let next = Number.POSITIVE_INFINITY;
    for (const pending of this.#pending.values()) {
      if (pending.deadline <= now) pending.expire();
      else if (pending.deadline < next) next = pending.deadline;
    }
    return next;
  }

  #error(error: Error): void {
    this.#onError?.(error);
    this.#listeners.error(error);
  }

  /** The transport closed: every request still waiting fails with ConnectionClosed, after the host heard the close. */
  #closed(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#deadlines.stop();
    this.#taskProgress.clear();
    for (const controller of this.#answering.values()) controller.abort();
    this.#answering.clear();
    // The host hears the close first: it may abandon the requests with its own reason.
    this.#listeners.closed();
    // Built only when a request waits: the first error a process builds costs about half a
    // millisecond, on the path of every close (a CLI's exit after its server's included).
    if (this.#pending.size > 0) this.#rejectAll(new MCPProtocolError(RpcCode.ConnectionClosed, "Connection closed"));
  }

  /** Forgets every request in flight, then rejects each with `error`. */
  #rejectAll(error: unknown): void {
    if (this.#pending.size === 0) return;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.#deadlines.idle();
    for (const request of pending) request.reject(error);
  }
}

function isTaskCreated(result: Record<string, unknown>): boolean {
  const task = result.task;
  return typeof task === "object" && task !== null && typeof (task as { taskId?: unknown }).taskId === "string";
}
