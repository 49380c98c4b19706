import { EventEmitter } from "node:events";

/**
 * What one direct request is aborted through: undici's `request()` takes an EventEmitter as its
 * `signal` as well as an AbortSignal (it reads `aborted` and `reason`, and listens for `abort`).
 * An AbortController per request cost more than the rest of the request's own bookkeeping in Node
 * 20 (an EventTarget set up the slow way, and a listener object for undici's listener); an emitter
 * costs a plain object. Each request still has its own, so undici's listener never lands on the
 * transport's shared signal.
 */
export class RequestAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  /** Aborts once, with `reason` as the request's failure (fetch rejects with the signal's reason, whatever it is). */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit("abort");
  }
}
