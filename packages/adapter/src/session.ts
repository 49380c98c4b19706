import type { MCPEngineConnection, MCPEngineMessage, MCPEngineRequestOptions } from "@mcp-tool-adapter/core";

/** Thrown by a pending request when its session closed under it, carrying why. */
export class ConnectionLost extends Error {
  readonly why: string;
  /** True when the request was never sent: the session had closed before it. */
  readonly beforeSend: boolean;
  constructor(why: string, cause: unknown, beforeSend = false) {
    super(`connection closed: ${why}`, { cause });
    this.name = "ConnectionLost";
    this.why = why;
    this.beforeSend = beforeSend;
  }
}

/** What Session.requestThen() hands a request's outcome to (each called unbound, as `then` calls them). */
export interface RequestSettlement<T> {
  readonly answered: (value: unknown) => T;
  readonly failed: (error: unknown) => T;
}

/** A request in flight through the wrapper; `close` settles it at once when the session goes away. */
interface PendingRequest {
  close(why: string): void;
}

/**
 * One connection of the adapter's engine, and the one path every request of the adapter takes on
 * it. Never reused after it closes. Whatever the engine, a request settles when the session is
 * dropped (even if the transport never reports the close) and leaves no listener behind on the
 * caller's signal: an engine with `abandonRequests` does both itself; for the others (SDK-backed
 * engines) a wrapper promise does it.
 */
export class Session {
  readonly connection: MCPEngineConnection;
  state: "open" | "closed" = "open";
  /** Told of every failed request: the connection layer drops the session when the failure says it is gone. */
  readonly #failed: (session: Session, error: unknown) => Error;
  /** Requests in flight through the wrapper; unused when the engine settles its own. */
  readonly #pending = new Set<PendingRequest>();

  constructor(connection: MCPEngineConnection, failed: (session: Session, error: unknown) => Error) {
    this.connection = connection;
    this.#failed = failed;
  }

  /**
   * Sends one request. The wrapper's AbortController is made only when the caller gave a signal:
   * in Node it costs more than the rest of a call, and the engine's own timeout already tells the
   * server to cancel.
   */
  request(request: MCPEngineMessage, options: MCPEngineRequestOptions, callerSignal?: AbortSignal): Promise<unknown> {
    if (this.state !== "open")
      return Promise.reject(new ConnectionLost("the connection was already closed", undefined, true));
    const { connection } = this;
    if (connection.abandonRequests !== undefined) {
      const sent = connection.request(
        request,
        callerSignal === undefined ? options : { ...options, signal: callerSignal },
      );
      return sent.catch((error: unknown) => {
        throw this.#failed(this, error);
      });
    }
    return new Promise<unknown>((resolve, reject) => {
      let controller: AbortController | undefined;
      let onCallerAbort: (() => void) | undefined;
      if (callerSignal !== undefined) {
        const linked = new AbortController();
        controller = linked;
        onCallerAbort = () => {
          linked.abort(callerSignal.reason);
        };
        callerSignal.addEventListener("abort", onCallerAbort, { once: true });
      }
      const pending: PendingRequest = {
        close(why) {
          done();
          // Aborting tells the server to cancel (the transport is still open at this point).
          controller?.abort(new Error(`connection closed: ${why}`));
          reject(new ConnectionLost(why, undefined));
        },
      };
      const done = (): void => {
        this.#pending.delete(pending);
        if (onCallerAbort !== undefined) callerSignal?.removeEventListener("abort", onCallerAbort);
      };
      this.#pending.add(pending);
      connection.request(request, controller === undefined ? options : { ...options, signal: controller.signal }).then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          reject(this.#failed(this, error));
        },
      );
    });
  }

  /**
   * request() with its outcome handed straight to `settle`: the answer to `answered`, the failure
   * (as request() would reject with it) to `failed`. The engine's promise is followed once, so the
   * caller's result is one promise turn after the answer, where `request().then()` takes two: on
   * a sequential call that turn sits between the answer's bytes and the caller.
   */
  requestThen<T>(
    request: MCPEngineMessage,
    options: MCPEngineRequestOptions,
    callerSignal: AbortSignal | undefined,
    settle: RequestSettlement<T>,
  ): Promise<T> {
    const { connection } = this;
    if (this.state !== "open" || connection.abandonRequests === undefined)
      return this.request(request, options, callerSignal).then(settle.answered, settle.failed);
    return connection
      .request(request, callerSignal === undefined ? options : { ...options, signal: callerSignal })
      .then(settle.answered, (error: unknown) => settle.failed(this.#failed(this, error)));
  }

  /** Marks the session closed and settles every request in flight with a ConnectionLost carrying `why`. */
  close(why: string): void {
    this.state = "closed";
    for (const pending of [...this.#pending]) pending.close(why);
    this.connection.abandonRequests?.(new ConnectionLost(why, undefined));
  }
}
