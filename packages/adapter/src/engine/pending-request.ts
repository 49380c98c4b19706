import { MCPProtocolError, type MCPEngineRequestOptions, type MCPProgress } from "@mcp-tool-adapter/core";
import { isSdkMcpError, RpcCode } from "../rpc-error.js";
import { clampTimer } from "../timeouts.js";

/**
 * SDK 1.x's DEFAULT_REQUEST_TIMEOUT_MSEC, written out: importing it loads the SDK's
 * shared/protocol.js and, through it, zod v3 and zod-to-json-schema (some sixty modules the
 * engine never uses) with every import of the adapter. A test holds the two equal.
 */
const SDK_DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** What a pending request reports to the session that owns it. */
export interface PendingRequestOwner {
  /** Gives up on the request: forget it, tell the server, reject with `reason`. */
  cancel(request: PendingRequest, reason: unknown): void;
}

/**
 * One request in flight: its promise (made here, so the session hands it back as is), its deadline (moved on by progress when asked,
 * bounded by `maxTotalTimeout`), its progress listener and its abort signal. The session's
 * DeadlineTimer times it out. The rules are SDK 1.x's: the default timeout is the SDK's, a
 * timeout and an abort both cancel with RequestTimeout, and an abort reason that is already a
 * JSON-RPC error (core's MCPProtocolError, or SDK 1.x's McpError) is kept as is.
 */
export class PendingRequest {
  readonly id: number;
  readonly onprogress: ((progress: MCPProgress) => void) | undefined;
  /** The host's mark for this request (MCPEngineRequestOptions.tag), handed to the server's requests that belong to it. */
  readonly tag: unknown;
  /** Settled through resolve() and reject(). */
  readonly promise: Promise<unknown>;
  #resolve!: (value: unknown) => void;
  #reject!: (error: unknown) => void;
  readonly #owner: PendingRequestOwner;
  readonly #timeoutMs: number;
  readonly #resetOnProgress: boolean;
  readonly #maxTotalMs: number | undefined;
  readonly #startedAt: number;
  readonly #signal: AbortSignal | undefined;
  #deadline: number;
  #onAbort: (() => void) | undefined;

  constructor(id: number, options: MCPEngineRequestOptions | undefined, owner: PendingRequestOwner) {
    this.id = id;
    this.#owner = owner;
    this.promise = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.onprogress = options?.onprogress;
    this.tag = options?.tag;
    // SDK 1.x's default when none is given; NaN and less than zero mean at once, Infinity never.
    // (Written here, not in a helper: one call fewer on every request, see JsonRpcSession's #receive.)
    const timeout = options?.timeout;
    this.#timeoutMs = timeout === undefined ? SDK_DEFAULT_REQUEST_TIMEOUT_MS : timeout >= 0 ? timeout : 0;
    this.#resetOnProgress = options?.resetTimeoutOnProgress ?? false;
    this.#maxTotalMs = options?.maxTotalTimeout;
    // The monotonic clock: a wall-clock jump must not fire timeouts early or hold them back.
    this.#startedAt = performance.now();
    this.#deadline = this.#startedAt + this.#timeoutMs;
    const signal = options?.signal;
    this.#signal = signal;
    if (signal !== undefined) {
      this.#onAbort = () => {
        owner.cancel(this, signal.reason);
      };
      signal.addEventListener("abort", this.#onAbort, { once: true });
    }
  }

  /** When the request times out, in performance.now() time. */
  get deadline(): number {
    return this.#deadline;
  }

  /** Its deadline has passed: forget it, tell the server, reject it with RequestTimeout. */
  expire(): void {
    this.#owner.cancel(
      this,
      new MCPProtocolError(RpcCode.RequestTimeout, "Request timed out", { data: { timeout: this.#timeoutMs } }),
    );
  }

  /**
   * A progress report arrived: moves the deadline on when asked to (it never comes sooner).
   * Returns the error to fail the request with when `maxTotalTimeout` has passed, else undefined.
   */
  progressed(): MCPProtocolError | undefined {
    if (!this.#resetOnProgress) return undefined;
    const now = performance.now();
    const elapsed = now - this.#startedAt;
    if (this.#maxTotalMs !== undefined && this.#maxTotalMs !== 0 && elapsed >= this.#maxTotalMs) {
      return new MCPProtocolError(RpcCode.RequestTimeout, "Maximum total timeout exceeded", {
        data: {
          maxTotalTimeout: this.#maxTotalMs,
          totalElapsed: Math.round(elapsed), // whole ms, as SDK 1.x reports it
        },
      });
    }
    this.#deadline = now + this.#timeoutMs;
    return undefined;
  }

  resolve(result: unknown): void {
    // The abort listener let go of here and in reject(), not in a shared helper: one call fewer on
    // every answer, which runs unoptimized for its first some 500 calls.
    if (this.#onAbort !== undefined) this.#signal?.removeEventListener("abort", this.#onAbort);
    this.#resolve(result);
  }

  /** Rejects with `error` as is (a server's error, a closed connection, a failed send). */
  reject(error: unknown): void {
    if (this.#onAbort !== undefined) this.#signal?.removeEventListener("abort", this.#onAbort);
    this.#reject(error);
  }

  /** Rejects as a cancelled request: an abort's reason, or RequestTimeout naming it. */
  rejectCancelled(reason: unknown): void {
    const keep = MCPProtocolError.isInstance(reason) || isSdkMcpError(reason);
    this.reject(keep ? reason : new MCPProtocolError(RpcCode.RequestTimeout, String(reason)));
  }
}

/**
 * One Node timer for the timeouts of every request a session has in flight. A timer per request
 * made each call set one up and tear it down (for a lone call, one of Node's timer lists too),
 * and that showed in the latency of sequential calls. This timer is armed for the earliest
 * deadline it has been told of and stays armed when requests finish; when it fires,
 * `expireDue(now)` times out whatever is due and returns the next deadline to wait for (or
 * Infinity). Like the per-request timers it replaces, it holds the process open exactly while
 * requests are in flight; over a transport that holds the process open itself (`holdProcess`
 * false) it never does, and is never referenced and unreferenced around each request.
 */
export class DeadlineTimer {
  readonly #expireDue: (now: number) => number;
  readonly #now: () => number;
  readonly #holdProcess: boolean;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #due = Number.POSITIVE_INFINITY;
  /** Whether the timer holds the process open now: asked here, so a request in flight among others costs no call into Node's timers. */
  #holding = false;

  // performance.now looked up at each call, not once: a test's fake clock replaces it after the session starts.
  constructor(
    expireDue: (now: number) => number,
    now: () => number = () => performance.now(),
    options: { readonly holdProcess?: boolean } = {},
  ) {
    this.#expireDue = expireDue;
    this.#now = now;
    this.#holdProcess = options.holdProcess ?? true;
  }

  /** A request due at `deadline` (a time on the `now` clock) is in flight. */
  watch(deadline: number): void {
    if (deadline < this.#due) this.#arm(deadline);
    else if (!this.#holding && this.#holdProcess) this.#hold();
  }

  /** Nothing is in flight: the timer may stay armed, but it no longer holds the process open. */
  idle(): void {
    if (!this.#holding) return;
    this.#holding = false;
    this.#timer?.unref();
  }

  /** For good: the session is closed. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#due = Number.POSITIVE_INFINITY;
    this.#holding = false;
  }

  #hold(): void {
    this.#holding = true;
    this.#timer?.ref();
  }

  #arm(deadline: number): void {
    clearTimeout(this.#timer);
    this.#due = deadline;
    // Past setTimeout's longest delay the timer fires early, finds nothing due and waits again.
    const timer = setTimeout(
      () => {
        this.#fire(timer);
      },
      clampTimer(Math.max(deadline - this.#now(), 0)),
    );
    this.#timer = timer;
    // A new timer holds the process open: say so, or let go of it for good.
    this.#holding = this.#holdProcess;
    if (!this.#holdProcess) timer.unref();
  }

  #fire(timer: ReturnType<typeof setTimeout>): void {
    // A timer replaced since has nothing to do (clearTimeout cannot reach it under a test's fake timers).
    if (timer !== this.#timer) return;
    this.#timer = undefined;
    this.#due = Number.POSITIVE_INFINITY;
    this.#holding = false;
    const next = this.#expireDue(this.#now());
    // Timing a request out may have started another, and armed the timer for it already.
    if (next < this.#due) this.#arm(next);
  }
}
